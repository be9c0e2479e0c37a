/* Print the symbols a libiolens.so wraps, one per line, as its own binding
 * tables list them (iolens_runtime_wrapped_symbol).
 *
 *   rt_symbols LIB */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: rt_symbols LIB\n");
        return 2;
    }
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "rt_symbols: %s\n", dlerror());
        return 1;
    }
    const char *(*sym)(size_t) = (const char *(*)(size_t))dlsym(h, "iolens_runtime_wrapped_symbol");
    if (!sym) {
        fprintf(stderr, "rt_symbols: iolens_runtime_wrapped_symbol not exported\n");
        return 1;
    }
    for (size_t i = 0; sym(i); i++)
        printf("%s\n", sym(i));
    return 0;
}
