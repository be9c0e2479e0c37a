/* POSIX asynchronous I/O on one file: aio_write waited for with aio_suspend,
 * aio_write64 waited for by polling aio_error64, aio_read by polling
 * aio_error, each finished with aio_return (aio_return64); lio_listio with
 * LIO_WAIT (a write, a read and a LIO_NOP entry) and lio_listio64 with
 * LIO_NOWAIT (a read and a write, waited for with aio_suspend64); an
 * aio_write whose aio_return is never called (its bytes reach the file but
 * are not counted, as in Darshan); and a lio_listio(LIO_WAIT) whose third
 * request, on descriptor -1, fails, so that the call returns -1 (EIO)
 * although its first two requests were done.
 *
 * Built with -DWL_ORACLE, the last list leaves the failing request out, so
 * that the reference counts the other two; see deviations.md (D22). */
#include <aio.h>
#include <fcntl.h>
#include <time.h>

#include "wl.h"

static _Alignas(4096) unsigned char wbuf[16384];
static _Alignas(4096) unsigned char rbuf[16384];

/* cb, zeroed, for n bytes of buf at off on fd (op: for lio_listio). */
static void wl_aiocb(struct aiocb *cb, int fd, int op, void *buf, size_t n, off_t off)
{
    memset(cb, 0, sizeof *cb);
    cb->aio_fildes = fd;
    cb->aio_lio_opcode = op;
    cb->aio_buf = buf;
    cb->aio_nbytes = n;
    cb->aio_offset = off;
    cb->aio_sigevent.sigev_notify = SIGEV_NONE;
}

static void wl_aiocb64(struct aiocb64 *cb, int fd, int op, void *buf, size_t n, off64_t off)
{
    memset(cb, 0, sizeof *cb);
    cb->aio_fildes = fd;
    cb->aio_lio_opcode = op;
    cb->aio_buf = buf;
    cb->aio_nbytes = n;
    cb->aio_offset = off;
    cb->aio_sigevent.sigev_notify = SIGEV_NONE;
}

/* Fail unless an aio_error result is 0 (done, no error). */
static void wl_aio_ok(int err, const char *what)
{
    if (err != 0) {
        errno = err;
        wl_die(what);
    }
}

int main(int argc, char **argv)
{
    const char *dir = wl_dir(argc, argv);
    const struct timespec ms = {0, 1000000};
    char path[4096];
    struct aiocb w1, w3, r1, lw, lr, nop, fw, fr, bad;
    struct aiocb64 w2, lr64, lw64;
    int fd, err;

    wl_path(path, sizeof path, dir, "aio.dat");
    wl_fill(wbuf, sizeof wbuf, 17);
    fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0644);
    WL_CHECK(fd >= 0, "open");

    /* aio_write, waited for with aio_suspend */
    wl_aiocb(&w1, fd, LIO_NOP, wbuf, 4096, 0);
    WL_CHECK(aio_write(&w1) == 0, "aio_write");
    {
        const struct aiocb *wait[1] = {&w1};
        while (aio_error(&w1) == EINPROGRESS)
            WL_CHECK(aio_suspend(wait, 1, NULL) == 0 || errno == EINTR, "aio_suspend");
    }
    wl_aio_ok(aio_error(&w1), "aio_write result");
    WL_EXPECT_N(aio_return(&w1), 4096, "aio_return of aio_write");

    /* aio_write64, polled with aio_error64 */
    wl_aiocb64(&w2, fd, LIO_NOP, wbuf, 1000, 8192);
    WL_CHECK(aio_write64(&w2) == 0, "aio_write64");
    while ((err = aio_error64(&w2)) == EINPROGRESS)
        nanosleep(&ms, NULL);
    wl_aio_ok(err, "aio_write64 result");
    WL_EXPECT_N(aio_return64(&w2), 1000, "aio_return64 of aio_write64");

    /* aio_read, polled with aio_error */
    wl_aiocb(&r1, fd, LIO_NOP, rbuf, 4096, 0);
    WL_CHECK(aio_read(&r1) == 0, "aio_read");
    while ((err = aio_error(&r1)) == EINPROGRESS)
        nanosleep(&ms, NULL);
    wl_aio_ok(err, "aio_read result");
    WL_EXPECT_N(aio_return(&r1), 4096, "aio_return of aio_read");
    WL_CHECK(memcmp(rbuf, wbuf, 4096) == 0, "aio_read data");

    /* lio_listio, LIO_WAIT: a write, a read, a LIO_NOP entry */
    wl_aiocb(&lw, fd, LIO_WRITE, wbuf, 512, 16384);
    wl_aiocb(&lr, fd, LIO_READ, rbuf, 1000, 8192);
    wl_aiocb(&nop, fd, LIO_NOP, rbuf + 8192, 100, 0);
    {
        struct aiocb *list[3] = {&lw, &lr, &nop};
        WL_CHECK(lio_listio(LIO_WAIT, list, 3, NULL) == 0, "lio_listio");
    }
    WL_EXPECT_N(aio_return(&lw), 512, "aio_return of a listed write");
    WL_EXPECT_N(aio_return(&lr), 1000, "aio_return of a listed read");

    /* lio_listio64, LIO_NOWAIT: a read and a write, waited for with aio_suspend64 */
    wl_aiocb64(&lr64, fd, LIO_READ, rbuf, 512, 16384);
    wl_aiocb64(&lw64, fd, LIO_WRITE, wbuf + 4096, 100, 12288);
    {
        struct aiocb64 *list[2] = {&lr64, &lw64};
        const struct aiocb64 *wait[2] = {&lr64, &lw64};
        WL_CHECK(lio_listio64(LIO_NOWAIT, list, 2, NULL) == 0, "lio_listio64");
        while (aio_error64(&lr64) == EINPROGRESS || aio_error64(&lw64) == EINPROGRESS)
            WL_CHECK(aio_suspend64(wait, 2, NULL) == 0 || errno == EINTR, "aio_suspend64");
    }
    wl_aio_ok(aio_error64(&lr64), "listed read64 result");
    wl_aio_ok(aio_error64(&lw64), "listed write64 result");
    WL_EXPECT_N(aio_return64(&lr64), 512, "aio_return64 of a listed read");
    WL_EXPECT_N(aio_return64(&lw64), 100, "aio_return64 of a listed write");

    /* aio_write done, but never passed to aio_return: not counted */
    wl_aiocb(&w3, fd, LIO_NOP, wbuf, 300, 20000);
    WL_CHECK(aio_write(&w3) == 0, "aio_write never returned");
    while ((err = aio_error(&w3)) == EINPROGRESS)
        nanosleep(&ms, NULL);
    wl_aio_ok(err, "aio_write never returned: result");

    /* lio_listio, LIO_WAIT, with a failing third request */
    wl_aiocb(&fw, fd, LIO_WRITE, wbuf, 2048, 24576);
    wl_aiocb(&fr, fd, LIO_READ, rbuf, 512, 0);
    wl_aiocb(&bad, -1, LIO_READ, rbuf + 8192, 100, 0);
    {
#ifdef WL_ORACLE
        struct aiocb *list[2] = {&fw, &fr};
        WL_CHECK(lio_listio(LIO_WAIT, list, 2, NULL) == 0, "lio_listio (oracle)");
#else
        struct aiocb *list[3] = {&fw, &fr, &bad};
        WL_CHECK(lio_listio(LIO_WAIT, list, 3, NULL) == -1 && errno == EIO,
                 "lio_listio with a failing request");
        WL_CHECK(aio_error(&bad) == EBADF, "failing request's error");
        WL_EXPECT_N(aio_return(&bad), -1, "aio_return of the failing request");
#endif
    }
    wl_aio_ok(aio_error(&fw), "listed write result");
    wl_aio_ok(aio_error(&fr), "listed read result");
    WL_EXPECT_N(aio_return(&fw), 2048, "aio_return of a listed write (failed list)");
    WL_EXPECT_N(aio_return(&fr), 512, "aio_return of a listed read (failed list)");

    WL_CHECK(close(fd) == 0, "close");
    return 0;
}
