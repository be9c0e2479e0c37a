/* iolens serve's HTTP server (libmicrohttpd): the page and the JSON API
 * over one database, read-only (docs/serve.md). */
#ifndef IOLENS_SERVE_SERVER_H
#define IOLENS_SERVE_SERVER_H

#include <stddef.h>

struct serve_conf {
    const char *db_url;  /* opened read-only for each request */
    const char *listen;  /* HOST:PORT, [IPV6]:PORT; port 0: any free port */
    double live_window;  /* seconds since its last event a job is live */
};

struct server;

/* Whether listen is an address server_start takes (HOST:PORT, [IPV6]:PORT,
 * HOST numeric or localhost). @return 0, or -1 with a one-line reason in err. */
int server_check_listen(const char *listen, char *err, size_t errlen);

/* Listen on conf->listen and answer on threads of the server's own.
 * @return the server, or NULL with a one-line reason in err. */
struct server *server_start(const struct serve_conf *conf, char *err, size_t errlen);

/* The address the server listens on, e.g. "127.0.0.1:8080". */
const char *server_address(const struct server *s);

/* Stop answering, wait for the requests under way and free the server. */
void server_stop(struct server *s);

#endif
