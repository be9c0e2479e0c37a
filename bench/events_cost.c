/* What an event costs the application's thread (bench/events.sh).
 *
 *   events_cost DIR N [idle]
 *
 * One write to DIR/f first (with events on, it starts the events thread,
 * which keeps the process's CPU set), then this thread pins itself to the
 * first CPU it may use, so that the events thread runs on another; then N
 * writes of 64 bytes (back to offset 0 every 4096), timed with this
 * thread's CPU clock and the monotonic clock. Prints "cpu NS wall NS":
 * nanoseconds per write, and "faults N": this thread's minor page faults
 * during the loop. "idle": a thread that only sleeps is started first,
 * so that libc takes its multi-threaded paths (as it does once the events
 * thread exists) without events. */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static double seconds(clockid_t c)
{
    struct timespec t;
    clock_gettime(c, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void *idle(void *arg)
{
    (void)arg;
    for (;;)
        pause();
    return NULL;
}

static long minor_faults(void)
{
    struct rusage u;
    getrusage(RUSAGE_THREAD, &u);
    return u.ru_minflt;
}

int main(int argc, char **argv)
{
    char path[4096], buf[64] = {0};
    pthread_t t;
    if (argc < 3 || (argc == 4 && strcmp(argv[3], "idle") != 0) || argc > 4)
        return 2;
    if (argc == 4 && pthread_create(&t, NULL, idle, NULL) != 0)
        return 1;
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
    long f0 = minor_faults();
    double c0 = seconds(CLOCK_THREAD_CPUTIME_ID), w0 = seconds(CLOCK_MONOTONIC);
    for (long i = 0; i < n; i++) {
        if (i % 4096 == 0)
            lseek(fd, 0, SEEK_SET);
        if (write(fd, buf, sizeof(buf)) != sizeof(buf))
            return 1;
    }
    double c1 = seconds(CLOCK_THREAD_CPUTIME_ID), w1 = seconds(CLOCK_MONOTONIC);
    long f1 = minor_faults();
    printf("cpu %.1f wall %.1f faults %ld\n", (c1 - c0) * 1e9 / (double)n,
           (w1 - w0) * 1e9 / (double)n, f1 - f0);
    close(fd);
    return 0;
}
