/* A process that does no I/O: bench/overhead.sh times its start-up and exit
 * with and without a runtime preloaded. */
int main(void)
{
    return 0;
}
