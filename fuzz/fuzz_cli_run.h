/* For the fuzz targets that run the iolens command in-process (its sources
 * built in, main() renamed iolens_cli_main). */
#ifndef IOLENS_FUZZ_CLI_RUN_H
#define IOLENS_FUZZ_CLI_RUN_H

/* Run `iolens argv[1]...` and check the command's promise on stderr: a
 * failing run prints exactly one line "iolens VERB: PATH: reason" (or
 * "PATH:LINE: reason" for a text file; "# warning:" lines aside; with path
 * NULL, "iolens VERB: reason", for a command whose error may concern no one
 * file). Aborts, printing what it saw, when it does not.
 * @return the command's exit status. */
int fuzz_run_cli(int argc, char **argv, const char *path);

#endif
