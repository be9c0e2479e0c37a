/* Odd stacks for rt_callsites.sh's stacks case: the call-site walk must
 * follow frames kept with RBP (-O0), variable-length arrays and alloca
 * (the CFA on RBP, stack pointer moved at run time), a realigned frame,
 * recursion, threads, and fall back through a signal frame (a handler's
 * write). Built with -g, without inlining or tail calls, so that every
 * call below is a frame. Writes go to DIR/out; the handler's, on lines
 * marked SITE-handler, the others on SITE-leaf.
 *
 *   cs_stacks DIR      prints "cs_stacks done LEAF HANDLER": the writes made */
#include <alloca.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define THREADS 2
#define ROUNDS 60

static int fd;
static volatile int sink;
static int leaf_writes, handler_writes; /* the main thread's; threads add theirs at join */

__attribute__((noinline)) static int leaf(int k)
{
    char b[64];
    memset(b, k, sizeof(b));
    return write(fd, b, 1 + (unsigned)k % 60) > 0; /* SITE-leaf */
}

__attribute__((noinline)) static int vla_frame(int n)
{
    char a[n];
    memset(a, n, (size_t)n);
    int r = leaf(a[n / 2]);
    sink = a[0];
    return r;
}

__attribute__((noinline)) static int alloca_frame(int n)
{
    char *a = alloca((size_t)n);
    memset(a, 2, (size_t)n);
    int r = vla_frame(n + 17);
    sink = a[n - 1];
    return r;
}

__attribute__((noinline)) static int recurse(int d)
{
    int r = d == 0 ? alloca_frame(33) : recurse(d - 1);
    sink = d;
    return r;
}

__attribute__((noinline)) static int realigned(int d)
{
    char x[64] __attribute__((aligned(64)));
    memset(x, d, sizeof(x));
    int r = recurse(d);
    sink = x[d];
    return r;
}

static void handler(int sig)
{
    (void)sig;
    char c = 's';
    if (write(fd, &c, 1) == 1) /* SITE-handler */
        handler_writes++;
}

static void *thread_main(void *arg)
{
    int *n = arg;
    for (int i = 0; i < ROUNDS; i++)
        *n += realigned(i % 5);
    return NULL;
}

int main(int argc, char **argv)
{
    char path[4096];
    if (argc != 2 || snprintf(path, sizeof(path), "%s/out", argv[1]) >= (int)sizeof(path))
        return 2;
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || signal(SIGUSR1, handler) == SIG_ERR)
        return 1;
    pthread_t t[THREADS];
    int counts[THREADS] = {0};
    for (int i = 0; i < THREADS; i++)
        if (pthread_create(&t[i], NULL, thread_main, &counts[i]) != 0)
            return 1;
    for (int i = 0; i < ROUNDS; i++) {
        leaf_writes += recurse(i % 6) + alloca_frame(i + 1);
        if (i % 20 == 0)
            raise(SIGUSR1);
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
        leaf_writes += counts[i];
    }
    close(fd);
    printf("cs_stacks done %d %d\n", leaf_writes, handler_writes);
    return 0;
}
