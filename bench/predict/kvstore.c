/* Key-value store: fixed-size values kept in a file at the slot their key
 * hashes to; puts and gets at hashed (random) offsets, then a compaction
 * that copies the live slots sequentially. Each value ends in a checksum of
 * its bytes (CRC-32, bit by bit), computed by put and verified by get, as stores keep
 * one per record; the compaction copies slots whole, verifying nothing.
 * (The checksum is written out in both rather than called: a function's
 * measured time is its own lines', and a record's checksum is part of a
 * put's and a get's work.) */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define NSLOTS 8192
#define VALUE 256
#define NPUTS 6000
#define NGETS 12000

char value[VALUE];

unsigned hash_key(unsigned key)
{
    unsigned h = key;
    for (int r = 0; r < 16; r++)
        h = (h ^ (h >> 15)) * 2246822519u + 3266489917u;
    return h % NSLOTS;
}

void put(int fd, unsigned key)
{
    unsigned sum = 0xFFFFFFFFu;
    memset(value, (int)(key & 0xff), VALUE - 4);
    for (int i = 0; i < VALUE - 4; i++) {
        sum ^= (unsigned char)value[i];
        for (int b = 0; b < 8; b++)
            sum = (sum >> 1) ^ (0xEDB88320u & -(sum & 1));
    }
    memcpy(value + VALUE - 4, &sum, 4);
    unsigned slot = hash_key(key);
    pwrite(fd, value, VALUE, (off_t)slot * VALUE);
}

long get(int fd, unsigned key)
{
    unsigned slot = hash_key(key);
    unsigned sum = 0xFFFFFFFFu, stored;
    pread(fd, value, VALUE, (off_t)slot * VALUE);
    for (int i = 0; i < VALUE - 4; i++) {
        sum ^= (unsigned char)value[i];
        for (int b = 0; b < 8; b++)
            sum = (sum >> 1) ^ (0xEDB88320u & -(sum & 1));
    }
    memcpy(&stored, value + VALUE - 4, 4);
    return stored == sum ? value[0] : -1;
}

long audit(int fd)
{
    long mismatches = 0;
    for (unsigned k = 0; k < NPUTS; k += 8) {
        unsigned slot = hash_key(k);
        pread(fd, value, VALUE, (off_t)slot * VALUE);
        for (int r = 0; r < 16; r++)
            for (int i = 0; i < VALUE; i++)
                mismatches += value[i] != value[(i + r) % VALUE];
    }
    return mismatches;
}

void compact(int fd, int out)
{
    char block[VALUE * 64];
    for (int s = 0; s < NSLOTS / 64; s++) {
        pread(fd, block, sizeof block, (off_t)s * sizeof block);
        write(out, block, sizeof block);
    }
}

int main(void)
{
    int fd = open("kv.dat", O_RDWR | O_CREAT | O_TRUNC, 0644);
    int out = open("kv.compact", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    long sum = 0;
    for (unsigned k = 0; k < NPUTS; k++)
        put(fd, k);
    for (unsigned k = 0; k < NGETS; k++)
        sum += get(fd, k * 7);
    sum += audit(fd);
    compact(fd, out);
    close(out);
    close(fd);
    printf("kvstore: %ld\n", sum);
    return 0;
}
