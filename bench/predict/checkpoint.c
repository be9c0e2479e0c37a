/* Checkpointing simulation: a particle system advanced step by step, its
 * state written and synced every few steps, progress logged, and the last
 * checkpoint read back as a restart would. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#define NPARTICLES 102400 /* a multiple of the 512 values written at a time */
#define NSTEPS 40
#define EVERY 10

double pos[NPARTICLES], vel[NPARTICLES];

void init_particles(void)
{
    for (int i = 0; i < NPARTICLES; i++) {
        pos[i] = i * 0.001;
        vel[i] = (i % 7) * 0.01;
    }
}

void advance(double dt)
{
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < NPARTICLES; i++) {
            double f = -pos[i] * 0.5 + vel[i] * 0.01;
            vel[i] += f * dt;
            pos[i] += vel[i] * dt;
        }
}

void write_checkpoint(int step)
{
    char name[64];
    snprintf(name, sizeof name, "ckpt%d.dat", step);
    int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    for (int i = 0; i < NPARTICLES; i += 512) {
        write(fd, &pos[i], 512 * sizeof(double));
        write(fd, &vel[i], 512 * sizeof(double));
    }
    fsync(fd);
    close(fd);
}

void log_progress(FILE *log, int step)
{
    fprintf(log, "step %d pos0 %f\n", step, pos[0]);
    fflush(log);
}

double restart(void)
{
    int fd = open("ckpt30.dat", O_RDONLY);
    double sum = 0;
    for (int i = 0; i < NPARTICLES; i += 512) {
        read(fd, &pos[i], 512 * sizeof(double));
        read(fd, &vel[i], 512 * sizeof(double));
    }
    close(fd);
    for (int i = 0; i < NPARTICLES; i++)
        sum += pos[i];
    return sum;
}

int main(void)
{
    FILE *log = fopen("progress.log", "w");
    init_particles();
    for (int step = 0; step < NSTEPS; step++) {
        advance(0.01);
        if (step % EVERY == 0)
            write_checkpoint(step);
        log_progress(log, step);
    }
    fclose(log);
    printf("checkpoint: %f\n", restart());
    return 0;
}
