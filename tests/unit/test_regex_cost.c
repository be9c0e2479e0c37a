/* Unit tests of the cost check on the settings' regular expressions
 * (src/runtime/core/regex_cost.c): ordinary path expressions pass; nested
 * repetitions past 1000 copies and stacked quantifiers, which make glibc's
 * regcomp take gigabytes (measured: "a.?++++++++++++" 900 MB,
 * "(a{1,255}){1,255}" 156 MB), are refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "runtime/core/regex_cost.h"

static void ordinary_expressions_pass(void **state)
{
    (void)state;
    static const char *const ok[] = {
        "^/tmp/", "\\.tmp$", "^/scratch/[^/]+/ckpt[0-9]{4}\\.h5$", "(a|b)*c", "[]*+]x+",
        "[[:digit:]]{2,3}-[[:alpha:]]+", "(a+)+", "x{1000}", "(a{1,31}){1,31}", "a{", "a{x}",
        "\\++", ")", "((((((a*)*)*)*)*)*)", "",
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        long c = iol_regex_cost(ok[i]);
        if (c < 1 || c > IOL_REGEX_MAX_COST)
            fail_msg("\"%s\": cost %ld", ok[i], c);
    }
}

static void stacked_quantifiers_refused(void **state)
{
    (void)state;
    static const char *const bad[] = {"a++", "a.?+++++++++++++", "a*{2}", "a{2}{3}", "(x)?*",
                                      "a{1,1000}{1,1000}"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(iol_regex_cost(bad[i]), -1);
}

static void nested_repetitions_counted(void **state)
{
    (void)state;
    assert_int_equal(iol_regex_cost("(a{1,255}){1,255}"), 255 * 255);
    assert_int_equal(iol_regex_cost("((a{1,20}){1,20}){1,20}"), 8000);
    assert_int_equal(iol_regex_cost("((a+)+)+"), 8);
    assert_int_equal(iol_regex_cost("a{5,}"), 6);
    assert_true(iol_regex_cost("x{32767}") > IOL_REGEX_MAX_COST);
    /* sequential repetitions add, they do not multiply */
    assert_int_equal(iol_regex_cost("a{100}b{100}"), 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ordinary_expressions_pass),
        cmocka_unit_test(stacked_quantifiers_refused),
        cmocka_unit_test(nested_repetitions_counted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
