/* Graph traversal with random reads: the adjacency lists are stored on
 * disk, one block per vertex, each sorted first (as graph stores keep
 * them, for merges and lookups), and a breadth-first search reads the block
 * of each vertex it visits. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define NVERTICES 20000
#define DEGREE 16
#define BLOCK (DEGREE * sizeof(int))

int adjacency[NVERTICES][DEGREE];
int queue[NVERTICES];
int seen[NVERTICES];

void build_graph(void)
{
    unsigned x = 7;
    for (int v = 0; v < NVERTICES; v++)
        for (int d = 0; d < DEGREE; d++) {
            x = x * 1103515245u + 12345u;
            adjacency[v][d] = (int)((x >> 8) % NVERTICES);
        }
}

void store_graph(int fd)
{
    for (int v = 0; v < NVERTICES; v++) {
        int *list = adjacency[v];
        for (int i = 1; i < DEGREE; i++)
            for (int j = i; j > 0 && list[j - 1] > list[j]; j--) {
                int t = list[j];
                list[j] = list[j - 1];
                list[j - 1] = t;
            }
        pwrite(fd, list, BLOCK, (off_t)v * BLOCK);
    }
}

long traverse(int fd, int start)
{
    int head = 0, tail = 0, nbrs[DEGREE];
    long edges = 0;
    queue[tail++] = start;
    seen[start] = 1;
    while (head < tail) {
        int v = queue[head++];
        pread(fd, nbrs, BLOCK, (off_t)v * BLOCK);
        for (int d = 0; d < DEGREE; d++) {
            edges++;
            if (!seen[nbrs[d]]) {
                seen[nbrs[d]] = 1;
                queue[tail++] = nbrs[d];
            }
        }
    }
    return edges;
}

long checksum_blocks(int fd)
{
    int nbrs[DEGREE];
    long sum = 0;
    for (int v = 0; v < NVERTICES; v++) {
        pread(fd, nbrs, BLOCK, (off_t)v * BLOCK);
        for (int r = 0; r < 8; r++)
            for (int d = 0; d < DEGREE; d++)
                sum = sum * 31 + nbrs[d] + r;
    }
    return sum;
}

long degree_histogram(void)
{
    static long hist[NVERTICES];
    long maxdeg = 0;
    for (int round = 0; round < 20; round++)
        for (int v = 0; v < NVERTICES; v++)
            for (int d = 0; d < DEGREE; d++)
                hist[adjacency[v][d]] += round + 1;
    for (int v = 0; v < NVERTICES; v++)
        if (hist[v] > maxdeg)
            maxdeg = hist[v];
    return maxdeg;
}

int main(void)
{
    int fd = open("graph.dat", O_RDWR | O_CREAT | O_TRUNC, 0644);
    build_graph();
    store_graph(fd);
    long edges = traverse(fd, 0);
    long maxdeg = degree_histogram() + (checksum_blocks(fd) & 1);
    close(fd);
    printf("bfs: %ld edges, max in-degree %ld\n", edges, maxdeg);
    return 0;
}
