/* A process that does no I/O: bench/overhead.sh times its start-up and exit
 * with and without a runtime preloaded. With an argument FD, main's first act
 * is to send the CLOCK_MONOTONIC time (ns, a uint64_t) through descriptor FD,
 * which splits the wall time into start (spawn to main) and exit (main to
 * reaped); that one write happens in every configuration alike. */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc > 1) {
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        uint64_t ns = (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
        int fd = (int)strtol(argv[1], NULL, 10);
        if (write(fd, &ns, sizeof(ns)) != (ssize_t)sizeof(ns))
            return 1;
    }
    return 0;
}
