/* A header beside the program that includes it (c-tests/svcomp/local_header.c). */
#define RING_SIZE 2
extern int ring[RING_SIZE];
