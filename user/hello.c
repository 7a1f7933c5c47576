/* The smallest program: greets, says where it runs, exits 0. */
#include "ulib.h"

int main(long arg)
{
	unsigned int cpu = 0;

	getcpu(&cpu, 0);
	printf("hello: pid %d on CPU %u, arg %ld\n", getpid(), cpu, arg);
	return 0;
}
