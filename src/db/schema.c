/* The schema (docs/database.md) and the statements that fill it: one text
 * for SQLite and PostgreSQL, which both take these types and upserts. */
#include "db.h"

/* Rollup tables share their value columns and their update. */
#define ROLLUP_COLS                                                            \
    "  reads BIGINT NOT NULL,\n  writes BIGINT NOT NULL,\n"                     \
    "  bytes_read BIGINT NOT NULL,\n  bytes_written BIGINT NOT NULL,\n"         \
    "  other_ops BIGINT NOT NULL,\n  io_time DOUBLE PRECISION NOT NULL,\n"
#define ROLLUP_ADD(t)                                                          \
    " DO UPDATE SET reads = " t ".reads + excluded.reads,"                      \
    " writes = " t ".writes + excluded.writes,"                                 \
    " bytes_read = " t ".bytes_read + excluded.bytes_read,"                     \
    " bytes_written = " t ".bytes_written + excluded.bytes_written,"            \
    " other_ops = " t ".other_ops + excluded.other_ops,"                        \
    " io_time = " t ".io_time + excluded.io_time"
#define EARLIER(t, c) c " = CASE WHEN excluded." c " < " t "." c " OR " t "." c \
    " IS NULL THEN excluded." c " ELSE " t "." c " END"
#define LATER(t, c) c " = CASE WHEN excluded." c " > " t "." c " OR " t "." c   \
    " IS NULL THEN excluded." c " ELSE " t "." c " END"

const char *const db_schema_ddl[] = {
    "CREATE TABLE IF NOT EXISTS jobs (\n"
    "  job_key TEXT PRIMARY KEY,\n"
    "  source TEXT NOT NULL,\n"
    "  job_id BIGINT,\n"
    "  uid BIGINT,\n"
    "  exe TEXT,\n"
    "  nprocs BIGINT,\n"
    "  start_time DOUBLE PRECISION,\n"
    "  end_time DOUBLE PRECISION,\n"
    "  log_path TEXT,\n"
    "  log_version TEXT,\n"
    "  metadata TEXT,\n"
    "  partial_modules TEXT\n"
    ")",
    "CREATE TABLE IF NOT EXISTS processes (\n"
    "  job_key TEXT NOT NULL,\n"
    "  host TEXT NOT NULL,\n"
    "  rank BIGINT NOT NULL,\n"
    "  uid BIGINT,\n"
    "  exe TEXT,\n"
    "  first_time DOUBLE PRECISION,\n"
    "  last_time DOUBLE PRECISION,\n"
    "  events BIGINT NOT NULL,\n"
    "  dropped BIGINT NOT NULL,\n"
    "  PRIMARY KEY (job_key, host, rank)\n"
    ")",
    "CREATE TABLE IF NOT EXISTS files (\n"
    "  job_key TEXT NOT NULL,\n"
    "  record_id TEXT NOT NULL,\n"
    "  name TEXT,\n"
    "  PRIMARY KEY (job_key, record_id)\n"
    ")",
    "CREATE TABLE IF NOT EXISTS records (\n"
    "  job_key TEXT NOT NULL,\n"
    "  module TEXT NOT NULL,\n"
    "  rank BIGINT NOT NULL,\n"
    "  record_id TEXT NOT NULL,\n"
    "  file TEXT,\n"
    "  mount_point TEXT,\n"
    "  fs_type TEXT,\n"
    "  opens BIGINT,\n"
    "  reads BIGINT,\n"
    "  writes BIGINT,\n"
    "  bytes_read BIGINT,\n"
    "  bytes_written BIGINT,\n"
    "  max_byte_read BIGINT,\n"
    "  max_byte_written BIGINT,\n"
    "  read_time DOUBLE PRECISION,\n"
    "  write_time DOUBLE PRECISION,\n"
    "  meta_time DOUBLE PRECISION,\n"
    "  PRIMARY KEY (job_key, module, rank, record_id)\n"
    ")",
    "CREATE TABLE IF NOT EXISTS events (\n"
    "  job_key TEXT NOT NULL,\n"
    "  job_id BIGINT,\n"
    "  host TEXT NOT NULL,\n"
    "  rank BIGINT NOT NULL,\n"
    "  thread BIGINT,\n"
    "  module TEXT NOT NULL,\n"
    "  op TEXT NOT NULL,\n"
    "  record_id TEXT NOT NULL,\n"
    "  file TEXT,\n"
    "  \"offset\" BIGINT,\n"
    "  length BIGINT,\n"
    "  start_time DOUBLE PRECISION,\n"
    "  duration DOUBLE PRECISION,\n"
    "  timestamp DOUBLE PRECISION NOT NULL,\n"
    "  process_time DOUBLE PRECISION,\n"
    "  total_time DOUBLE PRECISION,\n"
    "  cnt BIGINT NOT NULL,\n"
    "  max_byte BIGINT,\n"
    "  switches BIGINT,\n"
    "  flushes BIGINT,\n"
    "  UNIQUE (job_key, host, rank, module, record_id, op, cnt, timestamp)\n"
    ")",
    "CREATE INDEX IF NOT EXISTS events_by_time ON events (job_key, timestamp)",
    "CREATE TABLE IF NOT EXISTS rollup_job (\n"
    "  job_key TEXT NOT NULL,\n"
    "  second BIGINT NOT NULL,\n" ROLLUP_COLS
    "  PRIMARY KEY (job_key, second)\n"
    ")",
    "CREATE TABLE IF NOT EXISTS rollup_rank (\n"
    "  job_key TEXT NOT NULL,\n"
    "  host TEXT NOT NULL,\n"
    "  rank BIGINT NOT NULL,\n"
    "  second BIGINT NOT NULL,\n" ROLLUP_COLS
    "  PRIMARY KEY (job_key, host, rank, second)\n"
    ")",
    "CREATE TABLE IF NOT EXISTS rollup_file (\n"
    "  job_key TEXT NOT NULL,\n"
    "  record_id TEXT NOT NULL,\n"
    "  second BIGINT NOT NULL,\n" ROLLUP_COLS
    "  PRIMARY KEY (job_key, record_id, second)\n"
    ")",
    "CREATE TABLE IF NOT EXISTS collect_offsets (\n"
    "  path TEXT PRIMARY KEY,\n"
    "  inode BIGINT NOT NULL,\n"
    "  position BIGINT NOT NULL\n"
    ")",
    NULL,
};

/* Indexed by enum db_stmt; '?' marks a parameter (db_pg.c numbers them). */
const char *const db_stmt_sql[DB_NSTMT] = {
    [DB_JOB_FROM_LOG] =
        "INSERT INTO jobs (job_key, source, job_id, uid, exe, nprocs, start_time, end_time,"
        " log_path, log_version, metadata, partial_modules)"
        " VALUES (?, 'log', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (job_key) DO NOTHING",
    [DB_RECORD] =
        "INSERT INTO records (job_key, module, rank, record_id, file, mount_point, fs_type,"
        " opens, reads, writes, bytes_read, bytes_written, max_byte_read, max_byte_written,"
        " read_time, write_time, meta_time)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
    [DB_FILE] = "INSERT INTO files (job_key, record_id, name) VALUES (?, ?, ?)"
                " ON CONFLICT (job_key, record_id) DO NOTHING",
    [DB_JOB_FROM_EVENTS] =
        "INSERT INTO jobs (job_key, source, job_id, uid, exe, start_time, end_time)"
        " VALUES (?, 'events', ?, ?, ?, ?, ?) ON CONFLICT (job_key) DO UPDATE SET"
        " exe = COALESCE(jobs.exe, excluded.exe), " EARLIER("jobs", "start_time") ", "
        LATER("jobs", "end_time"),
    [DB_PROCESS] =
        "INSERT INTO processes (job_key, host, rank, uid, exe, first_time, last_time, events,"
        " dropped) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (job_key, host, rank) DO UPDATE"
        " SET exe = COALESCE(processes.exe, excluded.exe), "
        EARLIER("processes", "first_time") ", " LATER("processes", "last_time") ","
        " events = processes.events + excluded.events,"
        " dropped = processes.dropped + excluded.dropped",
    [DB_EVENT] =
        "INSERT INTO events (job_key, job_id, host, rank, thread, module, op, record_id, file,"
        " \"offset\", length, start_time, duration, timestamp, process_time, total_time, cnt,"
        " max_byte, switches, flushes)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT DO NOTHING",
    [DB_ROLLUP_JOB] =
        "INSERT INTO rollup_job (job_key, second, reads, writes, bytes_read, bytes_written,"
        " other_ops, io_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (job_key, second)"
        ROLLUP_ADD("rollup_job"),
    [DB_ROLLUP_RANK] =
        "INSERT INTO rollup_rank (job_key, host, rank, second, reads, writes, bytes_read,"
        " bytes_written, other_ops, io_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (job_key, host, rank, second)" ROLLUP_ADD("rollup_rank"),
    [DB_ROLLUP_FILE] =
        "INSERT INTO rollup_file (job_key, record_id, second, reads, writes, bytes_read,"
        " bytes_written, other_ops, io_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (job_key, record_id, second)" ROLLUP_ADD("rollup_file"),
    [DB_OFFSET_GET] = "SELECT position FROM collect_offsets WHERE path = ? AND inode = ?",
    [DB_OFFSET_SET] =
        "INSERT INTO collect_offsets (path, inode, position) VALUES (?, ?, ?)"
        " ON CONFLICT (path) DO UPDATE SET inode = excluded.inode, position = excluded.position",
};
