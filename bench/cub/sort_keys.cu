/*
 * bench/cub/sort_keys.cu - the GPU baseline of bench/groupby.sh: how long
 * CUB takes to sort the GROUP BY keys of its 50M-groups query (issue 14:
 * "50M groups within 3x of a CUB sort of the keys").
 *
 *   nvcc -O3 -arch=sm_90 -o sort_keys bench/cub/sort_keys.cu
 *   ./sort_keys [--n 100000000] [--groups 50000000] [--reps 5] [--device 0]
 *
 * Generates on the device N int32 keys with the distribution of
 * bench/groupby.sh's g50m column, key(id) = (id * 2654435761) mod G for
 * id = 1..N (a bijection of id mod G: exactly N/G rows a group, every
 * group's rows spread over the table), G = min(--groups, N), and N int32
 * values (a hash of id, in -100000..100000, like the column v).  Then, each
 * one warm-up run and --reps timed runs (CUDA events around the CUB call
 * alone; the unsorted input is copied back before every run, untimed):
 *
 *   sort_keys        cub::DeviceRadixSort::SortKeys, all 32 bits
 *   sort_keys_bits   the same over the bits that G needs (the key range known)
 *   sort_pairs       cub::DeviceRadixSort::SortPairs, int32 keys + int32 values
 *   reduce_by_key    cub::DeviceReduce::ReduceByKey over the sorted pairs
 *                    (sum of the values into int64, one run a group)
 *   sort_reduce      sort_pairs then reduce_by_key, timed together
 *
 * Prints one line each, for bench/groupby.sh to parse:
 *
 *   device=NVIDIA H100 80GB HBM3 cc=9.0
 *   n=100000000 groups=50000000 reps=5
 *   op=sort_keys ms=<best> mean_ms=<mean> keys_per_s=<n / best>
 *   ...
 *   check=ok runs=50000000 sum=<sum of all values>
 *
 * check=FAIL (exit status 1) when the sort is not ascending or the runs of
 * ReduceByKey are not G, or their sums do not add up to the values' sum.
 * Any CUDA error: a message on stderr, exit status 1.
 */
#include <cub/cub.cuh>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(call)                                                                         \
    do {                                                                                 \
        cudaError_t e_ = (call);                                                         \
        if (e_ != cudaSuccess) {                                                         \
            fprintf(stderr, "sort_keys: CUDA error %s at %s:%d: %s\n", cudaGetErrorName(e_), \
                    __FILE__, __LINE__, cudaGetErrorString(e_));                         \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

static const unsigned long long KEY_MUL = 2654435761ULL;   /* prime, coprime to 10^k and 5 x 10^k */

/* a 64-bit mixer (splitmix64's finalizer) for the values */
__device__ __forceinline__ unsigned long long mix64(unsigned long long x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

__global__ void gen_kernel(int *keys, int *vals, long long n, long long groups)
{
    for (long long i = blockIdx.x * (long long) blockDim.x + threadIdx.x; i < n;
         i += (long long) gridDim.x * blockDim.x) {
        unsigned long long id = (unsigned long long) i + 1;
        keys[i] = (int) ((id * KEY_MUL) % (unsigned long long) groups);
        vals[i] = (int) (mix64(id) % 200001ULL) - 100000;
    }
}

/* int32 + int32 -> int64 sums: the accumulator of ReduceByKey is int64 */
struct SumI64 {
    template <typename A, typename B>
    __host__ __device__ __forceinline__ long long operator()(const A &a, const B &b) const
    {
        return (long long) a + (long long) b;
    }
};

/* ascending check: counts the pairs out of order */
__global__ void unsorted_kernel(const int *keys, long long n, unsigned long long *bad)
{
    for (long long i = blockIdx.x * (long long) blockDim.x + threadIdx.x; i + 1 < n;
         i += (long long) gridDim.x * blockDim.x)
        if (keys[i] > keys[i + 1])
            atomicAdd(bad, 1ULL);
}

struct Timing {
    const char *name;
    std::vector<float> ms;
};

static void report(const Timing &t, long long n)
{
    float best = t.ms[0], sum = 0;
    for (float m : t.ms) {
        if (m < best)
            best = m;
        sum += m;
    }
    printf("op=%s ms=%.3f mean_ms=%.3f keys_per_s=%.4g\n", t.name, best, sum / t.ms.size(),
           best > 0 ? n / (best / 1e3) : 0.0);
}

int main(int argc, char **argv)
{
    long long n = 100000000, groups = 50000000;
    int reps = 5, dev = 0;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--n") == 0 && i + 1 < argc)
            n = atoll(argv[++i]);
        else if (strcmp(argv[i], "--groups") == 0 && i + 1 < argc)
            groups = atoll(argv[++i]);
        else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (strcmp(argv[i], "--device") == 0 && i + 1 < argc)
            dev = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: sort_keys [--n N] [--groups G] [--reps R] [--device D]\n");
            return 2;
        }
    }
    if (n < 1 || n > INT32_MAX || groups < 1) {
        fprintf(stderr, "sort_keys: need 1 <= n <= 2^31-1 and groups >= 1\n");
        return 2;
    }
    if (groups > n)
        groups = n;
    if (reps < 1)
        reps = 1;
    int bits = 1;
    while (bits < 32 && (1LL << bits) < groups)
        bits++;

    CK(cudaSetDevice(dev));
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, dev));
    printf("device=%s cc=%d.%d\n", prop.name, prop.major, prop.minor);
    printf("n=%lld groups=%lld reps=%d bits=%d\n", n, groups, reps, bits);

    size_t nb = (size_t) n * sizeof(int);
    int *k_orig, *v_orig, *k_buf[2], *v_buf[2], *k_unique;
    long long *aggs, *d_total;
    int *d_runs;
    unsigned long long *d_bad;
    CK(cudaMalloc(&k_orig, nb));
    CK(cudaMalloc(&v_orig, nb));
    for (int b = 0; b < 2; b++) {
        CK(cudaMalloc(&k_buf[b], nb));
        CK(cudaMalloc(&v_buf[b], nb));
    }
    CK(cudaMalloc(&k_unique, nb));
    CK(cudaMalloc(&aggs, (size_t) n * sizeof(long long)));
    CK(cudaMalloc(&d_total, sizeof(long long)));
    CK(cudaMalloc(&d_runs, sizeof(int)));
    CK(cudaMalloc(&d_bad, sizeof(unsigned long long)));

    gen_kernel<<<4 * prop.multiProcessorCount, 256>>>(k_orig, v_orig, n, groups);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());

    /* temp storage: the largest any of the calls asks for */
    size_t tmp_bytes = 0, t;
    {
        cub::DoubleBuffer<int> dk(k_buf[0], k_buf[1]), dv(v_buf[0], v_buf[1]);
        CK(cub::DeviceRadixSort::SortKeys(nullptr, t, dk, (int) n));
        tmp_bytes = t > tmp_bytes ? t : tmp_bytes;
        CK(cub::DeviceRadixSort::SortKeys(nullptr, t, dk, (int) n, 0, bits));
        tmp_bytes = t > tmp_bytes ? t : tmp_bytes;
        CK(cub::DeviceRadixSort::SortPairs(nullptr, t, dk, dv, (int) n));
        tmp_bytes = t > tmp_bytes ? t : tmp_bytes;
        CK(cub::DeviceReduce::ReduceByKey(nullptr, t, k_buf[0], k_unique, v_buf[0], aggs, d_runs,
                                          SumI64(), n));
        tmp_bytes = t > tmp_bytes ? t : tmp_bytes;
        CK(cub::DeviceReduce::Reduce(nullptr, t, aggs, d_total, (int) groups, SumI64(), 0LL));
        tmp_bytes = t > tmp_bytes ? t : tmp_bytes;
    }
    void *tmp;
    CK(cudaMalloc(&tmp, tmp_bytes));

    cudaEvent_t e0, e1, e2;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    CK(cudaEventCreate(&e2));

    Timing t_keys{"sort_keys", {}}, t_bits{"sort_keys_bits", {}}, t_pairs{"sort_pairs", {}},
        t_rbk{"reduce_by_key", {}}, t_sr{"sort_reduce", {}};
    const int *sorted_k = nullptr, *sorted_v = nullptr;

    for (int r = -1; r < reps; r++) {   /* r = -1: the warm-up */
        float ms;
        /* SortKeys, 32 bits */
        {
            CK(cudaMemcpy(k_buf[0], k_orig, nb, cudaMemcpyDeviceToDevice));
            cub::DoubleBuffer<int> dk(k_buf[0], k_buf[1]);
            size_t tb = tmp_bytes;
            CK(cudaEventRecord(e0));
            CK(cub::DeviceRadixSort::SortKeys(tmp, tb, dk, (int) n));
            CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1));
            CK(cudaEventElapsedTime(&ms, e0, e1));
            if (r >= 0)
                t_keys.ms.push_back(ms);
        }
        /* SortKeys over the key range's bits */
        {
            CK(cudaMemcpy(k_buf[0], k_orig, nb, cudaMemcpyDeviceToDevice));
            cub::DoubleBuffer<int> dk(k_buf[0], k_buf[1]);
            size_t tb = tmp_bytes;
            CK(cudaEventRecord(e0));
            CK(cub::DeviceRadixSort::SortKeys(tmp, tb, dk, (int) n, 0, bits));
            CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1));
            CK(cudaEventElapsedTime(&ms, e0, e1));
            if (r >= 0)
                t_bits.ms.push_back(ms);
        }
        /* SortPairs, then ReduceByKey on its output */
        {
            CK(cudaMemcpy(k_buf[0], k_orig, nb, cudaMemcpyDeviceToDevice));
            CK(cudaMemcpy(v_buf[0], v_orig, nb, cudaMemcpyDeviceToDevice));
            cub::DoubleBuffer<int> dk(k_buf[0], k_buf[1]), dv(v_buf[0], v_buf[1]);
            size_t tb = tmp_bytes;
            float ms2, ms3;
            CK(cudaEventRecord(e0));
            CK(cub::DeviceRadixSort::SortPairs(tmp, tb, dk, dv, (int) n));
            CK(cudaEventRecord(e1));
            tb = tmp_bytes;
            CK(cub::DeviceReduce::ReduceByKey(tmp, tb, dk.Current(), k_unique, dv.Current(), aggs,
                                              d_runs, SumI64(), n));
            CK(cudaEventRecord(e2));
            CK(cudaEventSynchronize(e2));
            CK(cudaEventElapsedTime(&ms, e0, e1));
            CK(cudaEventElapsedTime(&ms2, e1, e2));
            CK(cudaEventElapsedTime(&ms3, e0, e2));
            if (r >= 0) {
                t_pairs.ms.push_back(ms);
                t_rbk.ms.push_back(ms2);
                t_sr.ms.push_back(ms3);
            }
            sorted_k = dk.Current();
            sorted_v = dv.Current();
        }
    }
    report(t_keys, n);
    report(t_bits, n);
    report(t_pairs, n);
    report(t_rbk, n);
    report(t_sr, n);

    /* check the last sort and reduction */
    int runs = 0;
    long long total = 0, expect = 0;
    unsigned long long bad = 0;
    CK(cudaMemset(d_bad, 0, sizeof(bad)));
    unsorted_kernel<<<4 * prop.multiProcessorCount, 256>>>(sorted_k, n, d_bad);
    CK(cudaGetLastError());
    CK(cudaMemcpy(&bad, d_bad, sizeof(bad), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&runs, d_runs, sizeof(int), cudaMemcpyDeviceToHost));
    size_t tb = tmp_bytes;
    CK(cub::DeviceReduce::Reduce(tmp, tb, aggs, d_total, runs, SumI64(), 0LL));
    CK(cudaMemcpy(&total, d_total, sizeof(total), cudaMemcpyDeviceToHost));
    tb = tmp_bytes;
    CK(cub::DeviceReduce::Reduce(tmp, tb, sorted_v, d_total, (int) n, SumI64(), 0LL));
    CK(cudaMemcpy(&expect, d_total, sizeof(expect), cudaMemcpyDeviceToHost));
    CK(cudaDeviceSynchronize());
    bool ok = bad == 0 && runs == groups && total == expect;
    printf("check=%s runs=%d sum=%lld unsorted=%llu\n", ok ? "ok" : "FAIL", runs, total, bad);

    cudaFree(tmp);
    cudaFree(k_orig);
    cudaFree(v_orig);
    for (int b = 0; b < 2; b++) {
        cudaFree(k_buf[b]);
        cudaFree(v_buf[b]);
    }
    cudaFree(k_unique);
    cudaFree(aggs);
    cudaFree(d_total);
    cudaFree(d_runs);
    cudaFree(d_bad);
    return ok ? 0 : 1;
}
