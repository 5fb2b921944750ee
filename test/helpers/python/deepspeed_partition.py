"""DeepSpeed's pipeline partitioning (deepspeed/runtime/utils.py: partition_uniform,
partition_balanced), as a test oracle for core/planner/exports/export-plan.ts.

    echo '[[[w, ...], parts], ...]' | python3 deepspeed_partition.py

Prints, per case, [partition_uniform(len(w), parts), partition_balanced(w, parts)] as JSON.
"""
import json
import sys

import numpy as np


def partition_uniform(num_items, num_parts):
    parts = [0] * (num_parts + 1)
    if num_items <= num_parts:
        for p in range(num_parts + 1):
            parts[p] = min(p, num_items)
        return parts
    chunksize = num_items // num_parts
    residual = num_items - (chunksize * num_parts)
    parts = np.arange(0, (num_parts + 1) * chunksize, chunksize)
    for i in range(residual):
        parts[i + 1:] += 1
    return parts.tolist()


def partition_balanced(weights, num_parts):
    n = len(weights)
    m = num_parts
    if n <= m:
        return partition_uniform(n, m)
    dp_max = np.full((n + 1, m + 1), np.inf)
    dp_min = np.full((n + 1, m + 1), np.inf)
    dp_cost = np.full((n + 1, m + 1), np.inf)
    position = np.zeros((n + 1, m + 1), dtype=int)
    prefix_sum = np.zeros((n + 1))
    prefix_sum[1:] = np.cumsum(weights)
    dp_max[0, 0] = 0
    dp_cost[0, 0] = 0
    for i in range(1, n + 1):
        for j in range(1, min(i, m) + 1):
            for k in range(i):
                max_sum = max(dp_max[k, j - 1], prefix_sum[i] - prefix_sum[k])
                min_sum = min(dp_min[k, j - 1], prefix_sum[i] - prefix_sum[k])
                cost = max_sum - min_sum
                if dp_cost[i, j] >= cost:
                    dp_cost[i, j] = cost
                    dp_max[i, j] = max_sum
                    dp_min[i, j] = min_sum
                    position[i, j] = k
    parts = [n]
    for i in reversed(range(1, m + 1)):
        parts.append(int(position[parts[-1], i]))
    parts.reverse()
    return parts


if __name__ == "__main__":
    cases = json.load(sys.stdin)
    print(json.dumps([[partition_uniform(len(w), m), partition_balanced(w, m)] for w, m in cases]))
