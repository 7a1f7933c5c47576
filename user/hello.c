/* The smallest program: greets, says where it runs, sleeps ARG seconds (nanosleep), exits 0. */
#include "ulib.h"

int main(long arg)
{
	unsigned int cpu = 0;

	getcpu(&cpu, 0);
	printf("hello: pid %d on CPU %u, arg %ld\n", getpid(), cpu, arg);
	if (arg > 0) {
		struct timespec ts = { arg, 0 };

		nanosleep(&ts, 0);
		printf("hello: pid %d slept %ld s\n", getpid(), arg);
	}
	return 0;
}
