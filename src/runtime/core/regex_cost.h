/* How much a regular expression of the settings (NAME_EXCLUDE and the
 * others) would cost glibc's regcomp: it copies a repeated part once per
 * repetition, so nested bounds multiply (a{1,255} inside {1,255}: 156 MB) and
 * stacked quantifiers double ("a.?+++++++++++++": 900 MB). The runtime
 * compiles these at the start of the programs it instruments. */
#ifndef IOL_RT_REGEX_COST_H
#define IOL_RT_REGEX_COST_H

/* Largest cost accepted: the copies of the costliest nested repetition. */
#define IOL_REGEX_MAX_COST 1000

/* The copies of a part of the extended regular expression re that regcomp
 * would make at worst (the product of the repetitions around it, `+`
 * counting 2 and a bound its largest count), or -1 when a quantifier
 * follows another ("a++", "a{2}{3}"), which POSIX leaves undefined. */
long iol_regex_cost(const char *re);

#endif
