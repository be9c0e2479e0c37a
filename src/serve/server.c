/* iolens serve's HTTP server: libmicrohttpd answers on a small pool of its
 * threads; each API request opens the database read-only, asks, and closes
 * it. Only GET and HEAD are answered. */
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "../report/report_assets.h"
#include "api.h"
#include "serve_assets.h"
#include "server.h"

#define POOL_THREADS 4
#define MAX_CONNECTIONS 64
#define LIMIT_MAX 10000

struct server {
    struct MHD_Daemon *d;
    struct serve_conf conf;
    char address[128];
    char host_port[3][128]; /* the Host headers accepted when on loopback */
    int loopback;
};

/* The page forbids everything it does not use: its scripts, style and
 * requests come from this server only. */
static const char page_policy[] =
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

static enum MHD_Result reply(struct MHD_Connection *c, unsigned status, struct MHD_Response *r,
                            const char *type)
{
    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(r, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    if (!strncmp(type, "text/html", 9)) {
        MHD_add_response_header(r, "Content-Security-Policy", page_policy);
        MHD_add_response_header(r, "X-Frame-Options", "DENY");
    }
    if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
        MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
    enum MHD_Result ok = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return ok;
}

/* A constant asset. */
static enum MHD_Result send_static(struct MHD_Connection *c, const void *p, size_t n,
                                   const char *type)
{
    return reply(c, MHD_HTTP_OK,
                MHD_create_response_from_buffer(n, (void *)p, MHD_RESPMEM_PERSISTENT), type);
}

/* {"error": why} with status. */
static enum MHD_Result send_error(struct MHD_Connection *c, unsigned status, const char *why)
{
    struct jbuf b = {0};
    jb_raw(&b, "{\"error\":");
    jb_str(&b, why);
    jb_raw(&b, "}\n");
    if (b.failed) {
        jb_free(&b);
        return MHD_NO;
    }
    return reply(c, status, MHD_create_response_from_buffer(b.len, b.p, MHD_RESPMEM_MUST_FREE),
                "application/json");
}

static double now(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* The integer query argument name, def when absent. @return 0, or -1 when
 * it is not a number from 1 to LIMIT_MAX. */
static int arg_limit(struct MHD_Connection *c, const char *name, int def, int *out)
{
    const char *s = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, name);
    char *end;
    if (!s) {
        *out = def;
        return 0;
    }
    long v = strtol(s, &end, 10);
    if (*end || end == s || v < 1 || v > LIMIT_MAX)
        return -1;
    *out = (int)v;
    return 0;
}

/* Answer /api/jobs/JOB[/WHAT] (job: the path after /api/jobs/). */
static int job_answer(struct server *s, struct MHD_Connection *c, struct db *db, char *job,
                      struct jbuf *b, unsigned *status, const char **why)
{
    char *slash = strrchr(job, '/');
    const char *what = "";
    if (slash && (!strcmp(slash, "/series") || !strcmp(slash, "/latency") ||
                  !strcmp(slash, "/slowest"))) {
        *slash = '\0';
        what = slash + 1;
    }
    int limit;
    *status = MHD_HTTP_BAD_REQUEST;
    if (!*what)
        return api_job(db, job, now(), s->conf.live_window, b);
    if (!strcmp(what, "latency"))
        return api_latency(db, job, b);
    if (!strcmp(what, "slowest")) {
        if (arg_limit(c, "limit", 10, &limit) < 0) {
            *why = "limit: not a number from 1 to 10000";
            return -2;
        }
        return api_slowest(db, job, limit, b);
    }
    const char *by = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "by");
    enum api_by k = !by || !strcmp(by, "job") ? API_BY_JOB
                    : !strcmp(by, "rank")     ? API_BY_RANK
                    : !strcmp(by, "file")     ? API_BY_FILE
                                              : (enum api_by)-1;
    if ((int)k < 0) {
        *why = "by: job, rank or file";
        return -2;
    }
    int points;
    if (arg_limit(c, "limit", 20, &limit) < 0 || arg_limit(c, "points", 1200, &points) < 0) {
        *why = "limit, points: not a number from 1 to 10000";
        return -2;
    }
    return api_series(db, job, k, limit, points, b);
}

/* Answer /api/... from a connection to the database of its own. */
static enum MHD_Result api(struct server *s, struct MHD_Connection *c, const char *url)
{
    char err[512];
    struct db *db = db_open_reader(s->conf.db_url, err, sizeof(err));
    if (!db)
        return send_error(c, MHD_HTTP_SERVICE_UNAVAILABLE, err);
    struct jbuf b = {0};
    unsigned status = MHD_HTTP_NOT_FOUND;
    const char *why = "no such resource";
    int rc = -2, limit;
    if (!strcmp(url, "/api/jobs")) {
        status = MHD_HTTP_BAD_REQUEST;
        if (arg_limit(c, "limit", 1000, &limit) == 0)
            rc = api_jobs(db, now(), s->conf.live_window, limit, &b);
        else
            why = "limit: not a number from 1 to 10000";
    } else if (!strncmp(url, "/api/jobs/", 10) && url[10]) {
        char *job = strdup(url + 10);
        rc = job ? job_answer(s, c, db, job, &b, &status, &why) : -1;
        free(job);
    }
    enum MHD_Result ok;
    if (rc == 0 && !b.failed) {
        jb_raw(&b, "\n");
        ok = reply(c, MHD_HTTP_OK, MHD_create_response_from_buffer(b.len, b.p,
                                                                   MHD_RESPMEM_MUST_FREE),
                  "application/json");
        b.p = NULL;
    } else if (rc == API_NOT_FOUND) {
        ok = send_error(c, MHD_HTTP_NOT_FOUND, "no such job");
    } else if (rc == -1 || b.failed) {
        ok = send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, b.failed ? "out of memory"
                                                                    : db_error(db));
    } else {
        ok = send_error(c, status, why);
    }
    jb_free(&b);
    db_close(db);
    return ok;
}

/* On loopback, only requests naming this server in Host are answered: a
 * web page elsewhere cannot reach it through a name of its own (DNS
 * rebinding). */
static int host_allowed(const struct server *s, struct MHD_Connection *c)
{
    if (!s->loopback)
        return 1;
    const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST);
    for (int i = 0; host && i < 3; i++)
        if (!strcmp(host, s->host_port[i]))
            return 1;
    return 0;
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version, const char *upload,
                              size_t *upload_size, void **state)
{
    struct server *s = cls;
    if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
        return send_error(c, MHD_HTTP_METHOD_NOT_ALLOWED, "read-only: GET and HEAD only");
    if (*upload_size) /* a GET with a body: not read */
        return send_error(c, MHD_HTTP_BAD_REQUEST, "no request body expected");
    if (!host_allowed(s, c))
        return send_error(c, MHD_HTTP_FORBIDDEN, "Host header does not name this server");
    if (!strcmp(url, "/"))
        return send_static(c, serve_asset_html, serve_asset_html_len, "text/html; charset=utf-8");
    if (!strcmp(url, "/static/serve.js"))
        return send_static(c, serve_asset_js, serve_asset_js_len,
                           "text/javascript; charset=utf-8");
    if (!strcmp(url, "/static/serve.css"))
        return send_static(c, serve_asset_css, serve_asset_css_len, "text/css; charset=utf-8");
    if (!strcmp(url, "/static/chart.min.js"))
        return send_static(c, report_asset_chartjs, report_asset_chartjs_len,
                           "text/javascript; charset=utf-8");
    if (!strncmp(url, "/api/", 5) || !strcmp(url, "/api"))
        return api(s, c, url);
    return send_error(c, MHD_HTTP_NOT_FOUND, "no such resource");
}

/* Parse HOST:PORT or [HOST]:PORT into addr. @return 0, or -1 with err. */
static int parse_listen(const char *listen, struct sockaddr_storage *addr, int *loopback,
                        char *err, size_t errlen)
{
    char host[64];
    const char *colon = strrchr(listen, ':');
    char *end;
    long port = colon ? strtol(colon + 1, &end, 10) : -1;
    if (!colon || !colon[1] || *end || port < 0 || port > 65535) {
        snprintf(err, errlen, "--listen %s: not HOST:PORT", listen);
        return -1;
    }
    size_t n = (size_t)(colon - listen);
    if (n >= 2 && listen[0] == '[' && listen[n - 1] == ']') {
        listen++;
        n -= 2;
    }
    if (n == 0 || n >= sizeof(host)) {
        snprintf(err, errlen, "--listen %s: not HOST:PORT", listen);
        return -1;
    }
    memcpy(host, listen, n);
    host[n] = '\0';
    if (!strcmp(host, "localhost"))
        snprintf(host, sizeof(host), "127.0.0.1");
    struct sockaddr_in *v4 = (struct sockaddr_in *)addr;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)addr;
    memset(addr, 0, sizeof(*addr));
    if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons((uint16_t)port);
        *loopback = (ntohl(v4->sin_addr.s_addr) >> 24) == 127;
    } else if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons((uint16_t)port);
        *loopback = IN6_IS_ADDR_LOOPBACK(&v6->sin6_addr);
    } else {
        snprintf(err, errlen, "--listen %s: not a numeric IP address (or localhost)", host);
        return -1;
    }
    return 0;
}

int server_check_listen(const char *listen, char *err, size_t errlen)
{
    struct sockaddr_storage addr;
    int loopback;
    return parse_listen(listen, &addr, &loopback, err, errlen);
}

struct server *server_start(const struct serve_conf *conf, char *err, size_t errlen)
{
    struct sockaddr_storage addr;
    struct server *s = calloc(1, sizeof(*s));
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->conf = *conf;
    if (parse_listen(conf->listen, &addr, &s->loopback, err, errlen) < 0) {
        free(s);
        return NULL;
    }
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO;
    if (addr.ss_family == AF_INET6)
        flags |= MHD_USE_IPv6;
    errno = 0;
    s->d = MHD_start_daemon(flags, 0, NULL, NULL, answer, s, MHD_OPTION_SOCK_ADDR, &addr,
                            MHD_OPTION_THREAD_POOL_SIZE, (unsigned)POOL_THREADS,
                            MHD_OPTION_CONNECTION_LIMIT, (unsigned)MAX_CONNECTIONS,
                            MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)30, MHD_OPTION_END);
    if (!s->d) {
        snprintf(err, errlen, "cannot listen on %s%s%s", conf->listen, errno ? ": " : "",
                 errno ? strerror(errno) : "");
        free(s);
        return NULL;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(s->d, MHD_DAEMON_INFO_BIND_PORT);
    unsigned port = info ? info->port : 0;
    char ip[INET6_ADDRSTRLEN];
    if (addr.ss_family == AF_INET6) {
        inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&addr)->sin6_addr, ip, sizeof(ip));
        snprintf(s->address, sizeof(s->address), "[%s]:%u", ip, port);
    } else {
        inet_ntop(AF_INET, &((struct sockaddr_in *)&addr)->sin_addr, ip, sizeof(ip));
        snprintf(s->address, sizeof(s->address), "%s:%u", ip, port);
    }
    snprintf(s->host_port[0], sizeof(s->host_port[0]), "%s", s->address);
    snprintf(s->host_port[1], sizeof(s->host_port[1]), "localhost:%u", port);
    snprintf(s->host_port[2], sizeof(s->host_port[2]), "[::1]:%u", port);
    return s;
}

const char *server_address(const struct server *s)
{
    return s->address;
}

void server_stop(struct server *s)
{
    if (!s)
        return;
    MHD_stop_daemon(s->d);
    free(s);
}
