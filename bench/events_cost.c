/* What an event costs the application's thread (bench/events.sh).
 *
 *   events_cost DIR N
 *
 * One write to DIR/f first (with events on, it starts the events thread,
 * which keeps the process's CPU set), then this thread pins itself to the
 * first CPU it may use, so that the events thread runs on another; then N
 * writes of 64 bytes (back to offset 0 every 4096), timed with this
 * thread's CPU clock and the monotonic clock. Prints "cpu NS wall NS":
 * nanoseconds per write. */
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double seconds(clockid_t c)
{
    struct timespec t;
    clock_gettime(c, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    char path[4096], buf[64] = {0};
    if (argc != 3)
        return 2;
    long n = strtol(argv[2], NULL, 10);
    snprintf(path, sizeof(path), "%s/f", argv[1]);
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0 || write(fd, buf, sizeof(buf)) != sizeof(buf)) {
        perror(path);
        return 1;
    }
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) == 0) {
        for (int c = 0; c < CPU_SETSIZE; c++)
            if (CPU_ISSET(c, &set)) {
                CPU_ZERO(&set);
                CPU_SET(c, &set);
                sched_setaffinity(0, sizeof(set), &set);
                break;
            }
    }
    double c0 = seconds(CLOCK_THREAD_CPUTIME_ID), w0 = seconds(CLOCK_MONOTONIC);
    for (long i = 0; i < n; i++) {
        if (i % 4096 == 0)
            lseek(fd, 0, SEEK_SET);
        if (write(fd, buf, sizeof(buf)) != sizeof(buf))
            return 1;
    }
    double c1 = seconds(CLOCK_THREAD_CPUTIME_ID), w1 = seconds(CLOCK_MONOTONIC);
    printf("cpu %.1f wall %.1f\n", (c1 - c0) * 1e9 / (double)n, (w1 - w0) * 1e9 / (double)n);
    close(fd);
    return 0;
}
