/* Log appender: events formatted and appended to a log, one line each,
 * the log flushed every so often, rotated, then scanned back by an audit
 * that parses each line and recomputes its event's hash (written out in
 * scan_log, not called: the audit's work is its own lines'). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NEVENTS 60000
#define FLUSH_EVERY 1000

char line[256];

void format_event(int n)
{
    unsigned h = (unsigned)n * 2654435761u;
    for (int r = 0; r < 40; r++)
        h = (h ^ (h >> 13)) * 1274126177u + (unsigned)r;
    snprintf(line, sizeof line, "event %d hash %08x\n", n, h);
}

void append_events(FILE *log)
{
    for (int n = 0; n < NEVENTS; n++) {
        format_event(n);
        fputs(line, log);
        if (n % FLUSH_EVERY == 0)
            fflush(log);
    }
}

void rotate(void)
{
    rename("app.log", "app.log.1");
}

long scan_log(void)
{
    FILE *fp = fopen("app.log.1", "r");
    char buf[256];
    long count = 0;
    while (fgets(buf, sizeof buf, fp)) {
        char *end;
        long n = strtol(buf + strlen("event "), &end, 10);
        unsigned stored = (unsigned)strtoul(end + strlen(" hash "), NULL, 16);
        unsigned h = (unsigned)n * 2654435761u;
        for (int r = 0; r < 40; r++)
            h = (h ^ (h >> 13)) * 1274126177u + (unsigned)r;
        count += h == stored;
    }
    fclose(fp);
    return count;
}

int main(void)
{
    FILE *log = fopen("app.log", "w");
    append_events(log);
    fclose(log);
    rotate();
    printf("logappend: %ld\n", scan_log());
    return 0;
}
