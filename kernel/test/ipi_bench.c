/*
 * The IPI round-trip benchmark printed at every boot (CONFIG_SMP_IPI_BENCH,
 * smp.ipi_rtt=0 skips it): synchronous smp_call_function_single() round
 * trips from CPU 0 to the first and the last other CPU, as median, p90, min.
 */
#define KPARAM_SUBSYS "smp"
#include <kernel/smp.h>
#include <kernel/printk.h>
#include <kernel/param.h>
#include <kernel/sort.h>
#include <time/time.h>

static bool ipi_rtt_enabled = true;
KPARAM_BOOL("smp.ipi_rtt", ipi_rtt_enabled,
	    "measure the cross-call round trip to two CPUs at boot");

#define RTT_WARMUP	20
#define RTT_SAMPLES	200

static void ipi_rtt_noop(void *info)
{
}

static void ipi_rtt_measure(unsigned int cpu)
{
	u64 s[RTT_SAMPLES];

	for (unsigned int i = 0; i < RTT_WARMUP + RTT_SAMPLES; i++) {
		u64 t0 = local_clock();

		smp_call_function_single(cpu, ipi_rtt_noop, NULL, 1);
		if (i >= RTT_WARMUP)
			s[i - RTT_WARMUP] = local_clock() - t0;
	}
	sort_u64(s, RTT_SAMPLES);
	printk(KERN_INFO "smp: IPI round trip to CPU %u: median %llu ns, p90 %llu ns, min %llu ns (%u samples)\n",
	       cpu, (unsigned long long)s[RTT_SAMPLES / 2],
	       (unsigned long long)s[RTT_SAMPLES * 9 / 10], (unsigned long long)s[0],
	       RTT_SAMPLES);
}

/*
 * Synchronous smp_call_function_single() round trips from this CPU to the
 * first and the last other online CPU (idle, so halted: the figure
 * includes the wake-up). Call with interrupts enabled, after smp_init().
 */
void smp_measure_ipi_rtt(void)
{
	unsigned int me = raw_smp_processor_id(), cpu, first = NR_CPUS, last = NR_CPUS;

	if (!ipi_rtt_enabled)
		return;
	for_each_online_cpu(cpu) {
		if (cpu == me)
			continue;
		if (first == NR_CPUS)
			first = cpu;
		last = cpu;
	}
	if (first == NR_CPUS)
		return;
	ipi_rtt_measure(first);
	if (last != first)
		ipi_rtt_measure(last);
}
