/* ML-style data loader: a synthetic data set of fixed-size samples made
 * and stored (each feature a pattern plus Gaussian-like noise, the sum of
 * twelve uniform draws), read in shuffled mini-batches at random offsets,
 * augmented and fed to a small dense layer. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define NSAMPLES 4096
#define FEATURES 256
#define BATCH 64
#define NBATCHES (NSAMPLES / BATCH)
#define HIDDEN 64
#define SAMPLE_BYTES (FEATURES * sizeof(float))

float batch[BATCH][FEATURES];
float weights[FEATURES][HIDDEN];
int order[NSAMPLES];

void make_dataset(void)
{
    int fd = open("samples.dat", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    float sample[FEATURES];
    unsigned x = 12345;
    for (int s = 0; s < NSAMPLES; s++) {
        for (int f = 0; f < FEATURES; f++) {
            float noise = -6.0f;
            for (int u = 0; u < 12; u++) {
                x = x * 1103515245u + 12345u;
                noise += (float)(x >> 8) / 16777216.0f;
            }
            sample[f] = (float)((s * 31 + f) % 97) / 97.0f + 0.01f * noise;
        }
        write(fd, sample, SAMPLE_BYTES);
    }
    close(fd);
}

void shuffle(void)
{
    for (int i = 0; i < NSAMPLES; i++)
        order[i] = i;
    for (int i = NSAMPLES - 1; i > 0; i--) {
        int j = rand() % (i + 1), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
}

void load_batch(int fd, int b)
{
    for (int k = 0; k < BATCH; k++) {
        off_t where = (off_t)order[b * BATCH + k] * SAMPLE_BYTES;
        pread(fd, batch[k], SAMPLE_BYTES, where);
    }
}

void augment(void)
{
    for (int k = 0; k < BATCH; k++)
        for (int f = 0; f < FEATURES; f++)
            batch[k][f] = batch[k][f] * 0.9f + 0.05f;
}

float train_step(void)
{
    float loss = 0;
    for (int k = 0; k < BATCH; k++)
        for (int h = 0; h < HIDDEN; h++) {
            float acc = 0;
            for (int f = 0; f < FEATURES; f++)
                acc += batch[k][f] * weights[f][h];
            loss += acc * acc;
        }
    return loss;
}

int main(void)
{
    float loss = 0;
    make_dataset();
    shuffle();
    int fd = open("samples.dat", O_RDONLY);
    for (int b = 0; b < NBATCHES; b++) {
        load_batch(fd, b);
        augment();
        loss += train_step();
    }
    close(fd);
    printf("dataloader: loss %f\n", loss);
    return 0;
}
