/*
 * Stand-in for libFuzzer when clang's is unavailable: feeds random mutations
 * of the seed corpus to LLVMFuzzerTestOneInput() for -max_total_time=N seconds.
 */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_SEEDS	256
#define MAX_LEN		4096

static char *seeds[MAX_SEEDS];
static size_t seed_len[MAX_SEEDS], nseeds;
static int corpus_dirs;
static char crash_path[4096] = "crash-input";
static uint64_t rng = 0x9e3779b97f4a7c15ULL;

/* The input being run, saved to ./crash-input if it kills us (as libFuzzer does). */
static const char *cur_input;
static size_t cur_len;

static void on_crash(int sig)
{
	int fd = open(crash_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd >= 0) {
		if (write(fd, cur_input, cur_len) < 0)
			_exit(128 + sig);
		close(fd);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void run(const char *data, size_t len)
{
	cur_input = data;
	cur_len = len;
	LLVMFuzzerTestOneInput((const uint8_t *)data, len);
}

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void load_dir(const char *dir)
{
	char path[4096];
	struct dirent *e;
	DIR *d = opendir(dir);
	FILE *f;

	if (!d)
		return;
	corpus_dirs++;
	while ((e = readdir(d)) && nseeds < MAX_SEEDS) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		f = fopen(path, "rb");
		if (!f)
			continue;
		seeds[nseeds] = malloc(MAX_LEN);
		seed_len[nseeds] = fread(seeds[nseeds], 1, MAX_LEN, f);
		fclose(f);
		nseeds++;
	}
	closedir(d);
}

/* Byte flips, inserts of interesting characters, deletes, and splices. */
static size_t mutate(char *buf, size_t len)
{
	static const char interesting[] = "=\",-:/ N\n\t0123456789xall_.";
	int n = 1 + rnd() % 8;

	while (n--) {
		size_t pos = len ? rnd() % len : 0;

		switch (rnd() % 4) {
		case 0:
			if (len)
				buf[pos] ^= 1 << (rnd() % 8);
			break;
		case 1:
			if (len < MAX_LEN) {
				memmove(buf + pos + 1, buf + pos, len - pos);
				buf[pos] = interesting[rnd() % (sizeof(interesting) - 1)];
				len++;
			}
			break;
		case 2:
			if (len) {
				memmove(buf + pos, buf + pos + 1, len - pos - 1);
				len--;
			}
			break;
		default: {
			size_t k = rnd() % nseeds, from = seed_len[k] ? rnd() % seed_len[k] : 0;
			size_t cnt = seed_len[k] - from;

			if (cnt > MAX_LEN - pos)
				cnt = MAX_LEN - pos;
			memcpy(buf + pos, seeds[k] + from, cnt);
			if (pos + cnt > len)
				len = pos + cnt;
			break;
		}
		}
	}
	return len;
}

int main(int argc, char **argv)
{
	unsigned long secs = 20, runs = 0;
	static char buf[MAX_LEN];
	time_t start = time(NULL);
	size_t len;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "-max_total_time=", 16))
			secs = strtoul(argv[i] + 16, NULL, 10);
		else if (!strncmp(argv[i], "-artifact_prefix=", 17))
			snprintf(crash_path, sizeof(crash_path), "%scrash-input", argv[i] + 17);
		else if (argv[i][0] != '-')
			load_dir(argv[i]);
	}
	/* Like libFuzzer: with files instead of directories, just run those. */
	if (!corpus_dirs) {
		for (i = 1; i < argc; i++) {
			FILE *f = argv[i][0] != '-' ? fopen(argv[i], "rb") : NULL;

			if (f) {
				len = fread(buf, 1, MAX_LEN, f);
				fclose(f);
				run(buf, len);
				printf("Executed %s\n", argv[i]);
			}
		}
		return 0;
	}
	if (!nseeds) {
		seeds[0] = calloc(1, MAX_LEN);
		nseeds = 1;
	}
	signal(SIGILL, on_crash);
	signal(SIGABRT, on_crash);
	signal(SIGSEGV, on_crash);
	for (i = 0; i < (int)nseeds; i++)
		run(seeds[i], seed_len[i]);
	while ((unsigned long)(time(NULL) - start) < secs) {
		size_t k = rnd() % nseeds;

		len = seed_len[k];
		memcpy(buf, seeds[k], len);
		len = mutate(buf, len);
		run(buf, len);
		runs++;
	}
	printf("Done %lu runs in %lu second(s)\n", runs, secs);
	return 0;
}
