"""Tables of TensorRT-LLM's performance docs, rows verbatim (docs/source/performance.md v0.5-v0.9,
docs/source/performance/perf-overview.md v0.10-v1.0, docs/source/developer-guide/perf-overview.md later),
as read for firstparty_tensorrt_llm.py. Only the table lines (and their section headings) are kept; blank
separator rows and markdown alignment rows are dropped. Keys are the source versions of that script."""

TABLES = {}

TABLES['v0.5'] = """\
## High Throughput
### H100 GPUs (FP8)
| Model                        | Batch Size | TP (1)    | Input Length | Output Length | Throughput (out tok/s) |
| GPT-J 6B                     | 64         | 1         | 128          | 128           |                 10,907 |
| GPT-J 6B                     | 64         | 1         | 128          | 2048          |                  6,179 |
| GPT-J 6B                     | 64         | 1         | 2048         | 128           |                  2,229 |
| GPT-J 6B                     | 64         | 1         | 2048         | 2048          |                  2,980 |
| LLaMA 7B                     | 64         | 1         | 128          | 128           |                  9,193 |
| LLaMA 7B                     | 64         | 1         | 128          | 2048          |                  5,367 |
| LLaMA 7B                     | 64         | 1         | 2048         | 128           |                  2,058 |
| LLaMA 7B                     | 32         | 1         | 2048         | 2048          |                  2,230 |
| LLaMA 70B                    | 64         | 4         | 128          | 128           |                  3,317 |
| LLaMA 70B                    | 64         | 4         | 128          | 2048          |                  2,616 |
| LLaMA 70B                    | 64         | 4         | 2048         | 128           |                    843 |
| LLaMA 70B                    | 64         | 4         | 2048         | 2048          |                  1,583 |
| Falcon 180B                  | 96         | 8         | 128          | 128           |                  2,686 |
| Falcon 180B                  | 96         | 8         | 128          | 2048          |                  2,073 |
| Falcon 180B                  | 64         | 8         | 2048         | 128           |                    465 |
### L40S GPUs (FP8)
| Model                        | Batch Size | TP (1)    | Input Length | Output Length | Throughput (out tok/s) |
| GPT-J 6B                     | 64         | 1         | 128          | 128           |                  3,630 |
| GPT-J 6B                     | 64         | 1         | 128          | 2048          |                  1,859 |
| GPT-J 6B                     | 32         | 1         | 2048         | 128           |                    616 |
| GPT-J 6B                     | 32         | 1         | 2048         | 2048          |                    757 |
| LLaMA 7B                     | 64         | 1         | 128          | 128           |                  3,240 |
| LLaMA 7B                     | 64         | 1         | 128          | 2048          |                  1,622 |
| LLaMA 7B                     | 32         | 1         | 2048         | 128           |                    581 |
| LLaMA 7B                     | 16         | 1         | 2048         | 2048          |                    531 |
### A100 GPUs (FP16)
| Model                        | Batch Size | TP (1)    | Input Length | Output Length | Throughput (out tok/s) |
| GPT-J 6B                     | 64         | 1         | 128          | 128           |                  3,679 |
| GPT-J 6B                     | 32         | 1         | 128          | 2048          |                  1,558 |
| GPT-J 6B                     | 32         | 1         | 2048         | 128           |                    526 |
| GPT-J 6B                     | 16         | 1         | 2048         | 2048          |                    650 |
| LLaMA 7B                     | 64         | 1         | 128          | 128           |                  3,486 |
| LLaMA 7B                     | 32         | 1         | 128          | 2048          |                  1,459 |
| LLaMA 7B                     | 32         | 1         | 2048         | 128           |                    529 |
| LLaMA 7B                     | 16         | 1         | 2048         | 2048          |                    592 |
| LLaMA 70B                    | 64         | 4         | 128          | 128           |                  1,237 |
| LLaMA 70B                    | 64         | 4         | 128          | 2048          |                  1,181 |
| LLaMA 70B                    | 64         | 4         | 2048         | 128           |                    272 |
| LLaMA 70B                    | 64         | 4         | 2048         | 2048          |                    738 |
| Falcon 180B                  | 64         | 8         | 128          | 128           |                    929 |
| Falcon 180B                  | 64         | 8         | 128          | 2048          |                    923 |
| Falcon 180B                  | 64         | 8         | 2048         | 128           |                    202 |
## Low Latency
### H100 GPUs (FP8)
| Model                        | Batch Size | TP (1)    | Input Length | 1st Token Latency (ms) |
| GPT-J 6B                     | 1          | 1         | 128          |                      7 |
| GPT-J 6B                     | 1          | 1         | 2048         |                     29 |
| LLaMA 7B                     | 1          | 1         | 128          |                      7 |
| LLaMA 7B                     | 1          | 1         | 2048         |                     36 |
| LLaMA 70B                    | 1          | 4         | 128          |                     26 |
| LLaMA 70B                    | 1          | 4         | 2048         |                    109 |
| Falcon 180B                  | 1          | 8         | 128          |                     27 |
| Falcon 180B                  | 1          | 8         | 2048         |                    205 |
### L40S GPUs (FP8)
| Model                        | Batch Size | TP (1)    | Input Length | 1st Token Latency (ms) |
| GPT-J 6B                     | 1          | 1         | 128          |                     12 |
| GPT-J 6B                     | 1          | 1         | 2048         |                     71 |
| LLaMA 7B                     | 1          | 1         | 128          |                     14 |
| LLaMA 7B                     | 1          | 1         | 2048         |                     73 |
### A100 GPUs (FP16)
| Model                        | Batch Size | TP (1)    | Input Length | 1st Token Latency (ms) |
| GPT-J 6B                     | 1          | 1         | 128          |                     12 |
| GPT-J 6B                     | 1          | 1         | 2048         |                    129 |
| LLaMA 7B                     | 1          | 1         | 128          |                     16 |
| LLaMA 7B                     | 1          | 1         | 2048         |                    133 |
| LLaMA 70B                    | 1          | 4         | 128          |                     47 |
| LLaMA 70B                    | 1          | 4         | 2048         |                    377 |
| Falcon 180B                  | 1          | 8         | 128          |                     61 |
| Falcon 180B                  | 1          | 8         | 2048         |                    509 |
"""

TABLES['v0.6.1'] = """\
## Peak Throughput
### H100 GPUs (FP8)
| Model                        | Batch Size | TP (1)    | Input Length | Output Length | Throughput (out tok/s/GPU) |
| GPT-J 6B                     | 1024       | 1         | 128          | 128           |                     26,150 |
| GPT-J 6B                     | 120        | 1         | 128          | 2048          |                      8,011 |
| GPT-J 6B                     | 64         | 1         | 2048         | 128           |                      2,551 |
| GPT-J 6B                     | 64         | 1         | 2048         | 2048          |                      3,327 |
| LLaMA 7B                     | 768        | 1         | 128          | 128           |                     19,694 |
| LLaMA 7B                     | 112        | 1         | 128          | 2048          |                      6,818 |
| LLaMA 7B                     | 80         | 1         | 2048         | 128           |                      2,244 |
| LLaMA 7B                     | 48         | 1         | 2048         | 2048          |                      2,740 |
| LLaMA 70B                    | 1024       | 2         | 128          | 128           |                      2,657 |
| LLaMA 70B                    | 480        | 4         | 128          | 2048          |                      1,486 |
| LLaMA 70B                    | 96         | 2         | 2048         | 128           |                        306 |
| LLaMA 70B                    | 64         | 2         | 2048         | 2048          |                        547 |
| Falcon 180B                  | 1024       | 4         | 128          | 128           |                        987 |
| Falcon 180B                  | 1024       | 8         | 128          | 2048          |                        724 |
| Falcon 180B                  | 64         | 4         | 2048         | 128           |                        112 |
| Falcon 180B                  | 64         | 4         | 2048         | 2048          |                        264 |
### L40S GPUs (FP8)<sup>*</sup>
| Model                        | Batch Size | TP (1)    | Input Length | Output Length | Throughput (out tok/s) |
| GPT-J 6B                     | 64         | 1         | 128          | 128           |                  3,630 |
| GPT-J 6B                     | 64         | 1         | 128          | 2048          |                  1,859 |
| GPT-J 6B                     | 32         | 1         | 2048         | 128           |                    616 |
| GPT-J 6B                     | 32         | 1         | 2048         | 2048          |                    757 |
| LLaMA 7B                     | 64         | 1         | 128          | 128           |                  3,240 |
| LLaMA 7B                     | 64         | 1         | 128          | 2048          |                  1,622 |
| LLaMA 7B                     | 32         | 1         | 2048         | 128           |                    581 |
| LLaMA 7B                     | 16         | 1         | 2048         | 2048          |                    531 |
### A100 GPUs (FP16)
| Model                        | Batch Size | TP (1)    | Input Length | Output Length | Throughput (out tok/s) |
| GPT-J 6B                     | 512        | 1         | 128          | 128           |                  6,374 |
| GPT-J 6B                     | 120        | 2         | 128          | 2048          |                  2,192 |
| GPT-J 6B                     | 60         | 1         | 2048         | 128           |                    670 |
| GPT-J 6B                     | 64         | 2         | 2048         | 2048          |                    903 |
| LLaMA 7B                     | 384        | 1         | 128          | 128           |                  5,586 |
| LLaMA 7B                     | 60         | 1         | 128          | 2048          |                  1,928 |
| LLaMA 7B                     | 52         | 1         | 2048         | 128           |                    591 |
| LLaMA 7B                     | 64         | 2         | 2048         | 2048          |                    782 |
| LLaMA 70B                    | 1280       | 4         | 128          | 128           |                    670 |
| LLaMA 70B                    | 240        | 4         | 128          | 2048          |                    525 |
| LLaMA 70B                    | 120        | 4         | 2048         | 128           |                     79 |
| Falcon 180B                  | 1024       | 8         | 128          | 128           |                    232 |
| Falcon 180B                  | 128        | 8         | 128          | 2048          |                    180 |
## Low Latency<sup>**</sup>
### H100 GPUs (FP8)
| Model                        | Batch Size | TP (1)    | Input Length | 1st Token Latency (ms) |
| GPT-J 6B                     | 1          | 1         | 128          |                      7 |
| GPT-J 6B                     | 1          | 1         | 2048         |                     29 |
| LLaMA 7B                     | 1          | 1         | 128          |                      7 |
| LLaMA 7B                     | 1          | 1         | 2048         |                     36 |
| LLaMA 70B                    | 1          | 4         | 128          |                     26 |
| LLaMA 70B                    | 1          | 4         | 2048         |                    109 |
| Falcon 180B                  | 1          | 8         | 128          |                     27 |
| Falcon 180B                  | 1          | 8         | 2048         |                    205 |
### L40S GPUs (FP8)
| Model                        | Batch Size | TP (1)    | Input Length | 1st Token Latency (ms) |
| GPT-J 6B                     | 1          | 1         | 128          |                     12 |
| GPT-J 6B                     | 1          | 1         | 2048         |                     71 |
| LLaMA 7B                     | 1          | 1         | 128          |                     14 |
| LLaMA 7B                     | 1          | 1         | 2048         |                     73 |
### A100 GPUs (FP16)
| Model                        | Batch Size | TP (1)    | Input Length | 1st Token Latency (ms) |
| GPT-J 6B                     | 1          | 1         | 128          |                     12 |
| GPT-J 6B                     | 1          | 1         | 2048         |                    129 |
| LLaMA 7B                     | 1          | 1         | 128          |                     16 |
| LLaMA 7B                     | 1          | 1         | 2048         |                    133 |
| LLaMA 70B                    | 1          | 4         | 128          |                     47 |
| LLaMA 70B                    | 1          | 4         | 2048         |                    377 |
| Falcon 180B                  | 1          | 8         | 128          |                     61 |
| Falcon 180B                  | 1          | 8         | 2048         |                    509 |
"""

TABLES['v0.8.0'] = """\
## Peak Throughput
### H200 GPUs (FP8)
| Model                        | Batch Size | TP (1)    | Input Length | Output Length | Throughput (out tok/s/GPU) |
| GPT-J 6B                     | 1024       | 1         | 128          | 128           |                     29,168 |
| GPT-J 6B                     | 120        | 1         | 128          | 2048          |                      9,472 |
| GPT-J 6B                     | 64         | 1         | 2048         | 128           |                      2,961 |
| GPT-J 6B                     | 64         | 1         | 2048         | 2048          |                      4,149 |
| Mistral 7B                   | 896        | 1         | 128          | 128           |                     20,569 |
| Mistral 7B                   | 120        | 1         | 128          | 2048          |                      8,968 |
| Mistral 7B                   | 84         | 1         | 2048         | 128           |                      2,450 |
| Mistral 7B                   | 56         | 1         | 2048         | 2048          |                      3,868 |
| LLaMA 7B                     | 896        | 1         | 128          | 128           |                     20,548 |
| LLaMA 7B                     | 120        | 1         | 128          | 2048          |                      8,343 |
| LLaMA 7B                     | 84         | 1         | 2048         | 128           |                      2,429 |
| LLaMA 7B                     | 56         | 1         | 2048         | 2048          |                      3,530 |
| LLaMA 70B                    | 512        | 1         | 128          | 128           |                      3,844 |
| LLaMA 70B                    | 512        | 2         | 128          | 2048          |                      4,008 |
| LLaMA 70B                    | 64         | 1         | 2048         | 128           |                        421 |
| LLaMA 70B                    | 64         | 1         | 2048         | 2048          |                      1,461 |
| Falcon 180B                  | 1024       | 4         | 128          | 128           |                      1,116 |
| Falcon 180B                  | 1024       | 4         | 128          | 2048          |                        990 |
| Falcon 180B                  | 64         | 4         | 2048         | 128           |                        118 |
| Falcon 180B                  | 64         | 4         | 2048         | 2048          |                        269 |
### H100 GPUs (FP8)
| Model                        | Batch Size | TP (1)    | Input Length | Output Length | Throughput (out tok/s/GPU) |
| GPT-J 6B                     | 1024       | 1         | 128          | 128           |                     27,357 |
| GPT-J 6B                     | 120        | 1         | 128          | 2048          |                      7,831 |
| GPT-J 6B                     | 64         | 1         | 2048         | 128           |                      2,661 |
| GPT-J 6B                     | 64         | 1         | 2048         | 2048          |                      3,409 |
| Mistral 7B                   | 896        | 1         | 128          | 128           |                     20,517 |
| Mistral 7B                   | 120        | 1         | 128          | 2048          |                      8,619 |
| Mistral 7B                   | 64         | 1         | 2048         | 128           |                      2,438 |
| Mistral 7B                   | 56         | 1         | 2048         | 2048          |                      3,733 |
| LLaMA 7B                     | 896        | 1         | 128          | 128           |                     20,241 |
| LLaMA 7B                     | 120        | 1         | 128          | 2048          |                      6,922 |
| LLaMA 7B                     | 64         | 1         | 2048         | 128           |                      2,170 |
| LLaMA 7B                     | 56         | 1         | 2048         | 2048          |                      2,816 |
| LLaMA 70B                    | 1024       | 2         | 128          | 128           |                      3,269 |
| LLaMA 70B                    | 512        | 4         | 128          | 2048          |                      2,718 |
| LLaMA 70B                    | 96         | 2         | 2048         | 128           |                        347 |
| LLaMA 70B                    | 64         | 2         | 2048         | 2048          |                      1,020 |
| Falcon 180B                  | 512        | 4         | 128          | 128           |                      1,048 |
| Falcon 180B                  | 1024       | 8         | 128          | 2048          |                        836 |
| Falcon 180B                  | 64         | 4         | 2048         | 128           |                        114 |
| Falcon 180B                  | 64         | 4         | 2048         | 2048          |                        250 |
### L40S GPUs (FP8)
| Model                        | Batch Size | TP (1)    | Input Length | Output Length | Throughput (out tok/s/GPU) |
| GPT-J 6B                     | 512        | 1         | 128          | 128           |                  7,992 |
| GPT-J 6B                     | 64         | 1         | 128          | 2048          |                  1,874 |
| GPT-J 6B                     | 32         | 1         | 2048         | 128           |                    693 |
| GPT-J 6B                     | 32         | 1         | 2048         | 2048          |                    768 |
| Mistral 7B                   | 896        | 1         | 128          | 128           |                  9,679 |
| Mistral 7B                   | 120        | 1         | 128          | 2048          |                  4,401 |
| Mistral 7B                   | 84         | 1         | 2048         | 128           |                    979 |
| Mistral 7B                   | 56         | 1         | 2048         | 2048          |                  1,721 |
| LLaMA 7B                     | 256        | 1         | 128          | 128           |                  5,954 |
| LLaMA 7B                     | 64         | 1         | 128          | 2048          |                  1,654 |
| LLaMA 7B                     | 32         | 1         | 2048         | 128           |                    579 |
| LLaMA 7B                     | 16         | 1         | 2048         | 2048          |                    542 |
| LLaMA 70B                    | 256        | 2         | 128          | 128           |                    561 |
| LLaMA 70B                    | 256        | 4         | 128          | 2048          |                    471 |
| LLaMA 70B                    | 16         | 2         | 2048         | 128           |                     49 |
| LLaMA 70B                    | 64         | 4         | 2048         | 2048          |                    177 |
| Falcon 180B                  | 512        | 8         | 128          | 128           |                    152 |
| Falcon 180B                  | 256        | 8         | 128          | 2048          |                    200 |
| Falcon 180B                  | 32         | 8         | 2048         | 128           |                     15 |
| Falcon 180B                  | 16         | 8         | 2048         | 2048          |                     39 |
### A100 GPUs (FP16)
| Model                        | Batch Size | TP (1)    | Input Length | Output Length | Throughput (out tok/s/GPU) |
| GPT-J 6B                     | 512        | 1         | 128          | 128           |                  6,810 |
| GPT-J 6B                     | 32         | 1         | 128          | 2048          |                  1,658 |
| GPT-J 6B                     | 32         | 1         | 2048         | 128           |                    631 |
| GPT-J 6B                     | 16         | 1         | 2048         | 2048          |                    692 |
| Mistral 7B                   | 896        | 1         | 128          | 128           |                  6,472 |
| Mistral 7B                   | 120        | 1         | 128          | 2048          |                  3,812 |
| Mistral 7B                   | 84         | 1         | 2048         | 128           |                    734 |
| Mistral 7B                   | 56         | 1         | 2048         | 2048          |                  1,607 |
| LLaMA 7B                     | 256        | 1         | 128          | 128           |                  5,353 |
| LLaMA 7B                     | 32         | 1         | 128          | 2048          |                  1,518 |
| LLaMA 7B                     | 32         | 1         | 2048         | 128           |                    547 |
| LLaMA 7B                     | 16         | 1         | 2048         | 2048          |                    613 |
| LLaMA 70B                    | 256        | 4         | 128          | 128           |                    565 |
| LLaMA 70B                    | 128        | 4         | 128          | 2048          |                    595 |
| LLaMA 70B                    | 32         | 4         | 2048         | 128           |                     66 |
| LLaMA 70B                    | 32         | 4         | 2048         | 2048          |                    185 |
| Falcon 180B                  | 256        | 8         | 128          | 128           |                    193 |
| Falcon 180B                  | 256        | 8         | 128          | 2048          |                    203 |
| Falcon 180B                  | 16         | 8         | 2048         | 128           |                     20 |
## Low Latency<sup>**</sup>
### H200 GPUs (FP8)
| Model                        | Batch Size | TP (1)    | Input Length | 1st Token Latency (ms) |
| GPT-J 6B                     | 1          | 1         | 128          |                    5.2 |
| GPT-J 6B                     | 1          | 1         | 2048         |                   23.6 |
| Mistral 7B                   | 1          | 1         | 128          |                    6.0 |
| Mistral 7B                   | 1          | 1         | 2048         |                   31.8 |
| LLaMA 7B                     | 1          | 1         | 128          |                    5.8 |
| LLaMA 7B                     | 1          | 1         | 2048         |                   30.1 |
| LLaMA 70B                    | 1          | 8         | 128          |                   16.0 |
| LLaMA 70B                    | 1          | 8         | 2048         |                   78.8 |
| Falcon 180B                  | 1          | 8         | 128          |                   37.2 |
| Falcon 180B                  | 1          | 8         | 2048         |                  120.8 |
### H100 GPUs (FP8)
| Model                        | Batch Size | TP (1)    | Input Length | 1st Token Latency (ms) |
| GPT-J 6B                     | 1          | 1         | 128          |                    5.7 |
| GPT-J 6B                     | 1          | 1         | 2048         |                   23.8 |
| Mistral 7B                   | 1          | 1         | 128          |                    6.6 |
| Mistral 7B                   | 1          | 1         | 2048         |                   32.6 |
| LLaMA 7B                     | 1          | 1         | 128          |                    6.4 |
| LLaMA 7B                     | 1          | 1         | 2048         |                   31.0 |
| LLaMA 70B                    | 1          | 8         | 128          |                   17.0 |
| LLaMA 70B                    | 1          | 8         | 2048         |                   84.4 |
| Falcon 180B                  | 1          | 8         | 128          |                   39.7 |
| Falcon 180B                  | 1          | 8         | 2048         |                  128.0 |
### L40S GPUs (FP8)
| Model                        | Batch Size | TP (1)    | Input Length | 1st Token Latency (ms) |
| GPT-J 6B                     | 1          | 1         | 128          |                   12.6 |
| GPT-J 6B                     | 1          | 1         | 2048         |                   61.2 |
| Mistral 7B                   | 1          | 1         | 128          |                   15.5 |
| Mistral 7B                   | 1          | 1         | 2048         |                   84.3 |
| LLaMA 7B                     | 1          | 1         | 128          |                   14.3 |
| LLaMA 7B                     | 1          | 1         | 2048         |                   79.0 |
| LLaMA 70B                    | 1          | 8         | 128          |                   70.9 |
| LLaMA 70B                    | 1          | 8         | 2048         |                  708.7 |
| Falcon 180B                  | 1          | 8         | 128          |                   93.4 |
| Falcon 180B                  | 1          | 8         | 2048         |                  769.8 |
### A100 GPUs (FP16)
| Model                        | Batch Size | TP (1)    | Input Length | 1st Token Latency (ms) |
| GPT-J 6B                     | 1          | 1         | 128          |                   14.1 |
| GPT-J 6B                     | 1          | 1         | 2048         |                  102.8 |
| Mistral 7B                   | 1          | 1         | 128          |                   16.4 |
| Mistral 7B                   | 1          | 1         | 2048         |                  128.7 |
| LLaMA 7B                     | 1          | 1         | 128          |                   16.1 |
| LLaMA 7B                     | 1          | 1         | 2048         |                  120.5 |
| LLaMA 70B                    | 1          | 8         | 128          |                   35.6 |
| LLaMA 70B                    | 1          | 8         | 2048         |                  235.1 |
| Falcon 180B                  | 1          | 8         | 128          |                   76.5 |
| Falcon 180B                  | 1          | 8         | 2048         |                  463.0 |
"""

TABLES['v0.9.0'] = """\
## Peak Throughput
### H200 GPUs (FP8)
| Model                        | Batch Size | TP (1)    | Input Length | Output Length | Throughput (out tok/s/GPU) |
| GPT-J 6B                     | 1024       | 1         | 128          | 128           |                     27,304 |
| GPT-J 6B                     | 120        | 1         | 128          | 2048          |                      8,530 |
| GPT-J 6B                     | 64         | 1         | 2048         | 128           |                      2,785 |
| GPT-J 6B                     | 64         | 1         | 2048         | 2048          |                      3,753 |
| Mistral 7B                   | 896        | 1         | 128          | 128           |                     20,460 |
| Mistral 7B                   | 120        | 1         | 128          | 2048          |                      8,950 |
| Mistral 7B                   | 64         | 1         | 2048         | 128           |                      2,423 |
| Mistral 7B                   | 56         | 1         | 2048         | 2048          |                      3,867 |
| Mixtral 8x7B                 | 1024       | 2         | 128          | 128           |                      5,444 |
| Mixtral 8x7B                 | 256        | 2         | 128          | 2048          |                      4,973 |
| Mixtral 8x7B                 | 64         | 2         | 2048         | 128           |                        605 |
| Mixtral 8x7B                 | 64         | 2         | 2048         | 2048          |                      1,821 |
| LLaMA 7B                     | 896        | 1         | 128          | 128           |                     20,618 |
| LLaMA 7B                     | 120        | 1         | 128          | 2048          |                      8,348 |
| LLaMA 7B                     | 64         | 1         | 2048         | 128           |                      2,391 |
| LLaMA 7B                     | 56         | 1         | 2048         | 2048          |                      3,522 |
| LLaMA 70B                    | 1024       | 1         | 128          | 128           |                      3,989 |
| LLaMA 70B                    | 512        | 2         | 128          | 2048          |                      3,963 |
| LLaMA 70B                    | 64         | 1         | 2048         | 128           |                        418 |
| LLaMA 70B                    | 64         | 1         | 2048         | 2048          |                      1,458 |
| Falcon 180B                  | 1024       | 4         | 128          | 128           |                      1,118 |
| Falcon 180B                  | 1024       | 4         | 128          | 2048          |                        990 |
| Falcon 180B                  | 64         | 4         | 2048         | 128           |                        118 |
| Falcon 180B                  | 64         | 4         | 2048         | 2048          |                        265 |
### H100 GPUs (FP8)
| Model                        | Batch Size | TP (1)    | Input Length | Output Length | Throughput (out tok/s/GPU) |
| GPT-J 6B                     | 1024       | 1         | 128          | 128           |                     25,860 |
| GPT-J 6B                     | 120        | 1         | 128          | 2048          |                      7,350 |
| GPT-J 6B                     | 64         | 1         | 2048         | 128           |                      2,570 |
| GPT-J 6B                     | 64         | 1         | 2048         | 2048          |                      3,212 |
| Mistral 7B                   | 896        | 1         | 128          | 128           |                     20,404 |
| Mistral 7B                   | 120        | 1         | 128          | 2048          |                      8,623 |
| Mistral 7B                   | 84         | 1         | 2048         | 128           |                      2,405 |
| Mistral 7B                   | 56         | 1         | 2048         | 2048          |                      3,731 |
| Mixtral 8x7B                 | 512        | 2         | 128          | 128           |                      5,255 |
| Mixtral 8x7B                 | 128        | 2         | 128          | 2048          |                      3,408 |
| Mixtral 8x7B                 | 64         | 2         | 2048         | 128           |                        588 |
| Mixtral 8x7B                 | 32         | 2         | 2048         | 2048          |                      1,317 |
| LLaMA 7B                     | 896        | 1         | 128          | 128           |                     19,854 |
| LLaMA 7B                     | 120        | 1         | 128          | 2048          |                      6,944 |
| LLaMA 7B                     | 84         | 1         | 2048         | 128           |                      2,163 |
| LLaMA 7B                     | 56         | 1         | 2048         | 2048          |                      2,826 |
| LLaMA 70B                    | 1024       | 2         | 128          | 128           |                      3,214 |
| LLaMA 70B                    | 512        | 4         | 128          | 2048          |                      2,725 |
| LLaMA 70B                    | 96         | 2         | 2048         | 128           |                        346 |
| LLaMA 70B                    | 64         | 2         | 2048         | 2048          |                      1,011 |
| Falcon 180B                  | 1024       | 4         | 128          | 128           |                      1,100 |
| Falcon 180B                  | 1024       | 8         | 128          | 2048          |                        837 |
| Falcon 180B                  | 64         | 4         | 2048         | 128           |                        112 |
| Falcon 180B                  | 64         | 4         | 2048         | 2048          |                        246 |
### L40S GPUs (FP8)
| Model                        | Batch Size | TP (1)    | Input Length | Output Length | Throughput (out tok/s/GPU) |
| GPT-J 6B                     | 512        | 1         | 128          | 128           |                  7,859 |
| GPT-J 6B                     | 64         | 1         | 128          | 2048          |                  1,904 |
| GPT-J 6B                     | 32         | 1         | 2048         | 128           |                    684 |
| GPT-J 6B                     | 32         | 1         | 2048         | 2048          |                    768 |
| Mistral 7B                   | 896        | 1         | 128          | 128           |                  9,562 |
| Mistral 7B                   | 120        | 1         | 128          | 2048          |                  4,387 |
| Mistral 7B                   | 84         | 1         | 2048         | 128           |                    971 |
| Mistral 7B                   | 56         | 1         | 2048         | 2048          |                  1,721 |
| Mixtral 8x7B                 | 256        | 4         | 128          | 128           |                  1,266 |
| Mixtral 8x7B                 | 256        | 4         | 128          | 2048          |                  1,490 |
| Mixtral 8x7B                 | 64         | 4         | 2048         | 128           |                    155 |
| Mixtral 8x7B                 | 32         | 4         | 2048         | 2048          |                    412 |
| LLaMA 7B                     | 256        | 1         | 128          | 128           |                  5,885 |
| LLaMA 7B                     | 64         | 1         | 128          | 2048          |                  1,654 |
| LLaMA 7B                     | 32         | 1         | 2048         | 128           |                    574 |
| LLaMA 7B                     | 16         | 1         | 2048         | 2048          |                    537 |
| LLaMA 70B                    | 256        | 2         | 128          | 128           |                    562 |
| LLaMA 70B                    | 256        | 4         | 128          | 2048          |                    478 |
| LLaMA 70B                    | 16         | 2         | 2048         | 128           |                     49 |
| LLaMA 70B                    | 64         | 4         | 2048         | 2048          |                    185 |
| Falcon 180B                  | 512        | 8         | 128          | 128           |                    152 |
| Falcon 180B                  | 256        | 8         | 128          | 2048          |                    200 |
| Falcon 180B                  | 32         | 8         | 2048         | 128           |                     15 |
| Falcon 180B                  | 32         | 8         | 2048         | 2048          |                     52 |
### A100 GPUs (FP16)
| Model                        | Batch Size | TP (1)    | Input Length | Output Length | Throughput (out tok/s/GPU) |
| GPT-J 6B                     | 512        | 1         | 128          | 128           |                  5,876 |
| GPT-J 6B                     | 32         | 1         | 128          | 2048          |                  1,549 |
| GPT-J 6B                     | 32         | 1         | 2048         | 128           |                    545 |
| GPT-J 6B                     | 32         | 1         | 2048         | 2048          |                    815 |
| Mistral 7B                   | 896        | 1         | 128          | 128           |                  6,251 |
| Mistral 7B                   | 120        | 1         | 128          | 2048          |                  3,776 |
| Mistral 7B                   | 64         | 1         | 2048         | 128           |                    698 |
| Mistral 7B                   | 56         | 1         | 2048         | 2048          |                  1,576 |
| Mixtral 8x7B                 | 512        | 2         | 128          | 128           |                  2,842 |
| Mixtral 8x7B                 | 128        | 2         | 128          | 2048          |                  1,724 |
| Mixtral 8x7B                 | 64         | 2         | 2048         | 128           |                    319 |
| Mixtral 8x7B                 | 32         | 2         | 2048         | 2048          |                    801 |
| LLaMA 7B                     | 256        | 1         | 128          | 128           |                  5,390 |
| LLaMA 7B                     | 32         | 1         | 128          | 2048          |                  1,484 |
| LLaMA 7B                     | 32         | 1         | 2048         | 128           |                    533 |
| LLaMA 7B                     | 16         | 1         | 2048         | 2048          |                    603 |
| LLaMA 70B                    | 1024       | 4         | 128          | 128           |                    686 |
| LLaMA 70B                    | 512        | 8         | 128          | 2048          |                    684 |
| LLaMA 70B                    | 96         | 4         | 2048         | 128           |                     80 |
| LLaMA 70B                    | 64         | 4         | 2048         | 2048          |                    289 |
| Falcon 180B                  | 1024       | 8         | 128          | 128           |                    254 |
| Falcon 180B                  | 512        | 8         | 128          | 2048          |                    266 |
| Falcon 180B                  | 64         | 8         | 2048         | 128           |                     29 |
| Falcon 180B                  | 64         | 8         | 2048         | 2048          |                     93 |
## Low Latency<sup>**</sup>
### H200 GPUs (FP8)
| Model                        | Batch Size | TP (1)    | Input Length | 1st Token Latency (ms) |
| GPT-J 6B                     | 1          | 1         | 128          |                    5.0 |
| GPT-J 6B                     | 1          | 1         | 2048         |                   23.5 |
| Mistral 7B                   | 1          | 1         | 128          |                    5.9 |
| Mistral 7B                   | 1          | 1         | 2048         |                   31.7 |
| Mixtral 8x7B                 | 1          | 2         | 128          |                   12.1 |
| Mixtral 8x7B                 | 1          | 2         | 2048         |                   87.7 |
| LLaMA 7B                     | 1          | 1         | 128          |                    5.7 |
| LLaMA 7B                     | 1          | 1         | 2048         |                   30.2 |
| LLaMA 70B                    | 1          | 4         | 128          |                   17.8 |
| LLaMA 70B                    | 1          | 4         | 2048         |                  103.0 |
| Falcon 180B                  | 1          | 4         | 128          |                   36.4 |
| Falcon 180B                  | 1          | 4         | 2048         |                  194.4 |
### H100 GPUs (FP8)
| Model                        | Batch Size | TP (1)    | Input Length | 1st Token Latency (ms) |
| GPT-J 6B                     | 1          | 1         | 128          |                    5.5 |
| GPT-J 6B                     | 1          | 1         | 2048         |                   23.8 |
| Mistral 7B                   | 1          | 1         | 128          |                    6.5 |
| Mistral 7B                   | 1          | 1         | 2048         |                   32.4 |
| Mixtral 8x7B                 | 1          | 2         | 128          |                   13.4 |
| Mixtral 8x7B                 | 1          | 2         | 2048         |                   89.5 |
| LLaMA 7B                     | 1          | 1         | 128          |                    6.3 |
| LLaMA 7B                     | 1          | 1         | 2048         |                   30.8 |
| LLaMA 70B                    | 1          | 4         | 128          |                   19.6 |
| LLaMA 70B                    | 1          | 8         | 2048         |                   85.1 |
| Falcon 180B                  | 1          | 4         | 128          |                   41.1 |
| Falcon 180B                  | 1          | 8         | 2048         |                  129.9 |
### L40S GPUs (FP8)
| Model                        | Batch Size | TP (1)    | Input Length | 1st Token Latency (ms) |
| GPT-J 6B                     | 1          | 1         | 128          |                   12.4 |
| GPT-J 6B                     | 1          | 1         | 2048         |                   61.7 |
| Mistral 7B                   | 1          | 1         | 128          |                   15.4 |
| Mistral 7B                   | 1          | 1         | 2048         |                   87.3 |
| Mixtral 8x7B                 | 1          | 4         | 128          |                   19.5 |
| Mixtral 8x7B                 | 1          | 4         | 2048         |                  165.6 |
| LLaMA 7B                     | 1          | 1         | 128          |                   14.1 |
| LLaMA 7B                     | 1          | 1         | 2048         |                   80.1 |
| LLaMA 70B                    | 1          | 8         | 128          |                   70.4 |
| LLaMA 70B                    | 1          | 4         | 2048         |                  673.3 |
| Falcon 180B                  | 1          | 8         | 128          |                   91.0 |
| Falcon 180B                  | 1          | 8         | 2048         |                  768.8 |
### A100 GPUs (FP16)
| Model                        | Batch Size | TP (1)    | Input Length | 1st Token Latency (ms) |
| GPT-J 6B                     | 1          | 1         | 128          |                   14.8 |
| GPT-J 6B                     | 1          | 1         | 2048         |                  136.4 |
| Mistral 7B                   | 1          | 1         | 128          |                   16.3 |
| Mistral 7B                   | 1          | 1         | 2048         |                  139.6 |
| Mixtral 8x7B                 | 1          | 2         | 128          |                   23.8 |
| Mixtral 8x7B                 | 1          | 2         | 2048         |                  160.9 |
| LLaMA 7B                     | 1          | 1         | 128          |                   16.2 |
| LLaMA 7B                     | 1          | 1         | 2048         |                  132.4 |
| LLaMA 70B                    | 1          | 4         | 128          |                   45.6 |
| LLaMA 70B                    | 1          | 8         | 2048         |                  249.2 |
| Falcon 180B                  | 1          | 8         | 128          |                   76.5 |
| Falcon 180B                  | 1          | 8         | 2048         |                  456.0 |
"""

TABLES['v0.10.0'] = """\
|              |                          | **GPU**       | H200 141GB HBM3 | H100 80GB HBM3 | H100 80GB HBM3 | A100-SXM4-80GB | L40S    | L40S    |
|              |                          | **Precision** | FP8             | FP8            | FP16           | FP16           | FP8     | FP16    |
| **Model**    | **Input/Output Lengths** | **TP**        |                 |                |                |                |         |         |
| GPTJ 6B      | 128/128                  | 1             | 40633.96        | 34955.29       | 11206.68       | 5966.69        | 6997.91 | 3448.53 |
|              | 2048/128                 | 1             | 2937.91         | 2800.37        | 1354.56        | 682.27         | 747.43  | 352.4   |
|              | 128/2048                 | 1             | 9039.72         | 54939.48       | 3896.8         | 2225.09        | 2041.52 | 896.04  |
|              | 2048/2048                | 1             | 5437.97         | 3663.26        | 1498.04        | 882.61         |         |         |
| LLaMA v2 7B  | 128/128                  | 1             | 18229.3         | 16985.6        | 10725.31       | 5303.5         | 6121.1  | 3139.62 |
|              | 2048/128                 | 1             | 2496.92         | 2355.47        | 1235.4         | 585.6          | 642.24  | 311.82  |
|              | 128/2048                 | 1             | 7612.25         | 6679.36        | 3399.43        | 1903.4         | 1749.4  |         |
|              | 2048/2048                | 1             | 3259.74         | 2805.32        | 1335.51        |                |         |         |
| LLaMA v3 8B  | 128/128                  | 1             | 16708.84        | 16708.53       | 12085.78       | 5853.96        | 8273.8  | 5207.01 |
|              | 2048/128                 | 1             | 2478.94         | 2427.09        | 1604.7         | 737.81         | 1021.64 | 622.15  |
|              | 128/2048                 | 1             | 8367.88         | 8013.55        | 6208.23        | 3385.71        | 4568.17 | 2134.72 |
|              | 2048/2048                | 1             | 3674.33         | 3500.48        | 2776.31        | 1514.04        | 1546.84 | 899.2   |
| Mixtral 8x7B | 128/128                  | 2             | 16959.49        | 16051.88       | 12376.52       | 5120.41        |         |         |
|              |                          | 4             |                 |                |                |                |         | 5271.48 |
|              | 2048/128                 | 2             | 2423.99         | 2276.6         | 1717.37        | 636.5          |         |         |
|              |                          | 4             |                 |                |                |                |         | 654.36  |
|              | 128/2048                 | 2             | 12944.52        | 11997.24       | 7864.88        | 3946.92        |         |         |
|              |                          | 4             |                 |                |                |                |         | 4650.16 |
|              | 2048/2048                | 2             | 6208.97         | 5498.33        | 3722.56        | 1834.36        |         |         |
|              |                          | 4             |                 |                |                |                |         | 2262.57 |
| LLaMA v2 70B | 128/128                  | 1             | 4055.97         | 2134.52        |                |                |         |         |
|              |                          | 2             | 6299.21         | 6035.36        |                | 963.14         | 980.31  |         |
|              |                          | 4             | 8758.45         | 8148.67        | 5454.76        | 2394.12        | 1450.61 | 838.03  |
|              |                          | 8             | 10261.44        | 9385.26        | 7491.94        | 3683.42        | 1387.91 | 1204.32 |
|              | 2048/128                 | 1             | 493.87          | 222.16         |                |                |         |         |
|              |                          | 2             | 784.47          | 757.55         |                | 114.9          | 111.24  |         |
|              |                          | 4             | 1164.15         | 1083.25        | 695.33         | 292.77         | 171.68  | 102.49  |
|              |                          | 8             | 1441.26         | 1346.9         | 1016.58        | 456.46         | 163.76  | 145.41  |
|              | 128/2048                 | 1             | 3199.9          | 635.32         |                |                |         |         |
|              |                          | 2             | 6747            | 4710.45        |                |                |         |         |
|              |                          | 4             | 10960.72        | 8485.56        | 3686.63        | 2047.67        | 1368.09 |         |
|              |                          | 8             | 17250.73        | 12333.24       | 7927.16        | 4166.36        | 1667.57 | 1186.38 |
|              | 2048/2048                | 1             | 1734.58         |                |                |                |         |         |
|              |                          | 2             | 3455.34         | 2267.45        |                |                |         |         |
|              |                          | 4             | 6141.39         | 4019.31        | 1814.78        | 1046           |         |         |
|              |                          | 8             | 9271.77         | 7061.32        | 3658.42        | 2210.84        | 771.23  | 614.74  |
| LLaMA v3 70B | 128/128                  | 1             | 3988.96         |                |                |                |         |         |
|              |                          | 2             | 6155.26         | 5835.57        |                |                |         |         |
|              |                          | 4             | 8454.74         | 7945.64        | 5210.19        | 2405.44        | 1280.9  |         |
|              |                          | 8             | 9893.18         | 9308.51        | 7126.51        | 3621.25        | 1367.56 | 1164.88 |
|              | 2048/128                 | 1             | 491.79          |                |                |                |         |         |
|              |                          | 2             | 783.26          | 751.14         |                |                |         |         |
|              |                          | 4             | 1154.66         | 1074.31        | 691.99         | 295.87         | 171.16  |         |
|              |                          | 8             | 1434.86         | 1337.36        | 1010.5         | 455.18         | 165.06  | 143.92  |
|              | 128/2048                 | 1             | 3015.16         |                |                |                |         |         |
|              |                          | 2             | 6758.32         | 4130.4         |                |                |         |         |
|              |                          | 4             | 10532.1         | 7730.54        | 3246.34        | 1974.04        | 1232.53 |         |
|              |                          | 8             | 16467.79        | 11680.94       | 7205.34        | 4091.45        | 1514.93 | 1034.07 |
|              | 2048/2048                | 1             | 1654.25         |                |                |                |         |         |
|              |                          | 2             | 3271.6          | 1976.76        |                |                |         |         |
|              |                          | 4             | 6113.93         | 3685.74        | 1612.11        | 992.74         |         |         |
|              |                          | 8             | 8986.3          | 6443.85        | 3523.17        | 2118.89        | 691.62  |         |
| Falcon 180B  | 128/128                  | 4             | 3810.55         | 3698.71        |                |                |         |         |
|              |                          | 8             | 5946.89         | 5608.59        | 3954.58        | 1754.14        | 1243.33 |         |
|              | 2048/128                 | 4             | 525.6           | 510.85         |                |                |         |         |
|              |                          | 8             | 848.4           | 813.95         | 535.41         | 221.39         | 145.35  |         |
|              | 128/2048                 | 4             | 2883.67         | 2495.62        |                |                |         |         |
|              |                          | 8             | 5388.34         | 4796.47        | 3051.89        | 1684.6         | 1359.42 |         |
|              | 2048/2048                | 4             | 1376.61         | 952.25         |                |                |         |         |
|              |                          | 8             | 2495.66         | 2421.77        | 896.28         |                | 609.65  |         |
"""

TABLES['v0.11.0'] = """\
|              |                          | **GPU**       | H200 141GB HBM3 | GH200 120GB | H100 80GB HBM3 | H100 80GB HBM3 | A100-SXM4-80GB | L40S     |
|              |                          | **Precision** | FP8             | FP8         | FP8            | FP16           | FP16           | FP8      |
| **Model**    | **Input/Output Lengths** | **TP**        |                 |             |                |                |                |          |
| GPTJ 6B      | 128/128                  | 1             | 25116.54        | 24998.09    | 24456.84       | 13328.96       | 6168.8         | 7737.44  |
|              | 2048/128                 | 1             | 2845.4          | 2840.46     | 2781.11        | 1410.81        | 662            | 83.46    |
|              | 128/2048                 | 1             | 8165.91         | 7936.16     | 7643.02        | 3503.41        | 2213.44        | 1927.91  |
|              | 2048/2048                | 1             | 3560.37         | 3197.21     | 3081.26        | 1326.79        | 893.43         |          |
| LLaMA v2 7B  | 128/128                  | 1             | 19695.41        | 19509.49    | 17684.88       | 11605.69       | 5286.1         | 6655.52  |
|              | 2048/128                 | 1             | 2471.89         | 2401.29     | 2342.71        | 1173.81        | 558.56         | 644.72   |
|              | 128/2048                 | 1             | 7867.28         | 6689.51     | 6814.72        | 3074.4         | 1813.79        | 1591.51  |
|              | 2048/2048                | 1             | 3215.63         | 3015.84     | 2820.31        | 1289.87        | 716.55         | 653.19   |
| LLaMA v3 8B  | 128/128                  | 1             | 29084.05        | 29197.48    | 27781.28       | 15225.75       | 6450.88        | 8929.6   |
|              | 2048/128                 | 1             | 3699.64         | 3780.47     | 3555.57        | 1844.38        | 775.18         | 1052.3   |
|              | 128/2048                 | 1             | 23723.81        | 22055.94    | 17894.85       | 8415.67        | 4837.47        | 4497.21  |
|              | 2048/2048                | 1             | 11193.29        | 8877.13     | 8398.71        | 3996.93        | 2271.65        | 1911.63  |
| Mistral 7B   | 128/128                  | 1             | 31618.59        | 31868.45    | 30400.21       | 16108.11       | 6749.91        | 10237.23 |
|              | 2048/128                 | 1             | 3791.1          | 3795.27     | 3618.11        | 1896.76        | 783.94         | 1126.08  |
|              | 128/2048                 | 1             | 25646.02        | 20491.88    | 20518.75       | 10018.54       | 5358.28        | 5441.98  |
|              | 2048/2048                | 1             | 12068.11        | 9462.96     | 9504.59        | 4383.42        | 2465.77        | 2213.69  |
| LLaMA v2 70B | 128/128                  | 2             | 6652.29         | 5619.41     | 6502.44        |                |                |          |
|              |                          | 4             | 10921.65        | 11043       | 10448.46       | 6219.11        | 2487.78        | 1549.09  |
|              |                          | 8             | 15878.34        |             | 14781.66       | 10093.27       | 4233.24        | 1497.68  |
|              | 2048/128                 | 2             | 766.38          | 647.73      | 747.14         |                |                |          |
|              |                          | 4             | 1296.75         | 1298.94     | 1231.26        | 714.07         | 285.9          | 179.19   |
|              |                          | 8             | 1930.16         |             | 1808.02        | 1230.66        | 494.29         | 176.24   |
|              | 128/2048                 | 2             | 7014.86         | 4844.17     | 5267.56        |                |                |          |
|              |                          | 4             | 13365.86        | 11596.55    | 9202.42        | 3787.24        | 2267.02        | 1772.45  |
|              |                          | 8             | 18861.53        |             | 17085.82       | 7846.64        | 5096.52        | 2290.99  |
|              | 2048/2048                | 2             | 3554.71         | 2843.31     | 2457.73        |                |                |          |
|              |                          | 4             | 6604.37         | 5969.11     | 4586.99        | 1994.1         | 1137.22        | 890.83   |
|              |                          | 8             | 10034.12        |             | 7647.54        | 4347.09        | 2152.35        | 1130.36  |
| LLaMA v3 70B | 128/128                  | 4             |                 | 9872.81     |                |                |                |          |
|              |                          | 8             | 15255           |             | 13853.05       |                | 4033.42        |          |
|              | 2048/128                 | 4             |                 | 1284.88     |                |                |                |          |
|              |                          | 8             | 1918.47         |             | 1738.94        |                | 476.42         |          |
|              | 128/2048                 | 4             |                 | 9996.88     |                |                |                |          |
|              |                          | 8             | 19071.39        |             | 10887.34       |                | 3373.71        |          |
|              | 2048/2048                | 4             |                 | 4985.31     |                |                |                |          |
|              |                          | 8             | 9387.81         |             | 6029.39        |                | 1824.06        |          |
| Mixtral 8x7B | 128/128                  | 2             | 26317.73        | 21768.19    | 24770.44       | 11821.14       | 5522.43        |          |
|              | 2048/128                 | 2             | 3181.76         | 2545.52     | 2973.11        | 1391.28        | 636.77         |          |
|              | 128/2048                 | 2             | 30105.61        | 23643.33    | 22120.85       | 6337.02        | 3698.23        |          |
|              | 2048/2048                | 2             | 15002.42        | 11683.11    | 11486.66       | 3024.95        | 1710.53        |          |
| Falcon 180B  | 128/128                  | 4             | 5647.01         |             | 5568.91        |                |                |          |
|              |                          | 8             | 9304.06         |             | 8885.39        |                | 2171.78        |          |
|              | 2048/128                 | 4             | 670.99          | 693.82      | 667.8          |                |                |          |
|              |                          | 8             | 1103.18         |             | 1065.16        |                | 238.61         |          |
|              | 128/2048                 | 4             | 8358.01         | 6655.38     | 6376.89        |                |                |          |
|              |                          | 8             | 14514.24        |             | 12447.25       |                | 2657.9         |          |
|              | 2048/2048                | 4             | 4169.39         | 3415.05     | 3412.09        |                |                |          |
|              |                          | 8             | 7524.11         |             | 6326.46        |                | 1392.31        |          |
"""

TABLES['v0.12.0'] = """\
|              |                          | **GPU**       | H200 141GB HBM3 | GH200 120GB | H100 80GB HBM3 | H100 80GB HBM3 | A100-SXM4-80GB | L40S    |
|              |                          | **Precision** | FP8             | FP8         | FP8            | Mixed          | Mixed          | FP8     |
| **Model**    | **Input/Output Lengths** | **TP**        |                 |             |                |                |                |         |
| GPTJ 6B      | 128/128                  | 1             | 24834.76        | 22454.79    | 24429.55       | 13085.91       | 5864.81        | 7647.24 |
|              | 128/2048                 | 1             | 8348.93         | 6656.25     | 7831.38        | 3882.21        | 2194.57        | 1843.91 |
|              | 128/4096                 | 1             | 5062.80         | 3678.91     | 3968.98        | 2046.53        | 1118.22        | 980.67  |
|              | 2048/128                 | 1             | 2776.53         | 2491.03     | 2724.38        | 1488.56        | 657.01         | 741.06  |
|              | 2048/2048                | 1             | 3631.54         | 2994.81     | 3004.17        | 1280.54        | 854.37         | 754.16  |
| LLaMA v2 7B  | 128/128                  | 1             | 19706.35        | 17803.58    | 19068.99       | 11393.48       | 5272.39        | 6345.72 |
|              | 128/2048                 | 1             | 7651.12         | 5472.34     | 6610.03        | 2964.65        | 1785.79        | 1551.37 |
|              | 128/4096                 | 1             | 4424.90         | 3271.61     | 3649.38        | 1596.87        | 957.12         | 817.24  |
|              | 2048/128                 | 1             | 2385.54         | 2035.42     | 2271.63        | 1189.06        | 564.77         | 625.09  |
|              | 2048/2048                | 1             | 3191.34         | 2726.29     | 2802.41        | 1243.96        | 735.19         | 641.56  |
| LLaMA v3 8B  | 128/128                  | 1             | 28288.75        | 25420.52    | 27399.75       | 15567.44       | 6586.88        | 8745.80 |
|              | 128/2048                 | 1             | 23230.62        | 16426.68    | 19198.73       | 8817.39        | 4882.13        | 5084.49 |
|              | 128/4096                 | 1             | 16144.44        | 9832.66     | 12084.97       | 5352.37        | 3079.90        | 2755.13 |
|              | 2048/128                 | 1             | 3623.79         | 3290.22     | 3463.26        | 1852.48        | 781.63         | 980.86  |
|              | 2048/2048                | 1             | 11093.62        | 7573.35     | 8894.11        | 3986.83        | 2268.13        | 2051.79 |
| Mistral 7B   | 128/128                  | 1             | 30223.01        | 27696.90    | 29788.46       | 16319.25       | 6807.02        | 9612.58 |
|              | 128/2048                 | 1             | 24989.54        | 17942.29    | 20509.72       | 9982.01        | 5296.02        | 5444.89 |
|              | 128/4096                 | 1             | 17036.14        | 10846.03    | 12807.80       | 5718.89        | 3241.33        | 2931.17 |
|              | 2048/128                 | 1             | 3678.80         | 3294.02     | 3521.71        | 1887.75        | 786.43         | 1002.49 |
|              | 2048/2048                | 1             | 11510.54        | 8357.75     | 9214.61        | 4284.82        | 2363.25        | 2154.26 |
| Mixtral 8x7B | 128/128                  | 2             | 24895.03        | 8785.80     | 24394.71       | 15529.86       | 5921.41        |         |
|              |                          | 4             | 42014.24        | 38828.53    | 40197.42       | 28132.17       | 11414.95       | 6820.26 |
|              | 128/2048                 | 2             | 29389.21        | 5474.69     | 20873.02       | 7066.02        | 4306.98        |         |
|              |                          | 4             | 52348.10        | 41573.66    | 40588.05       | 21285.72       | 10974.83       | 7467.15 |
|              | 128/4096                 | 2             | 21480.27        | 2277.66     | 12838.28       | 3986.01        | 2400.11        |         |
|              |                          | 4             | 39182.04        | 28626.55    | 28337.31       | 12447.13       | 7278.89        | 5233.43 |
|              | 2048/128                 | 2             | 2934.44         | 1003.51     | 2898.27        | 1834.77        | 693.51         |         |
|              |                          | 4             | 5152.40         | 4724.01     | 5028.61        | 3393.18        | 1362.93        | 805.49  |
|              | 2048/2048                | 2             | 14029.17        | 2671.88     | 10479.45       | 3531.31        | 1945.88        |         |
|              |                          | 4             | 25436.05        | 20302.56    | 19971.72       | 9622.66        | 5221.74        | 3616.30 |
| LLaMA v3 70B | 128/128                  | 2             | 5386.88         |             |                | 2959.22        | 1301.14        |         |
|              |                          | 4             | 8944.26         | 8587.01     | 8642.05        | 5966.47        | 2413.95        |         |
|              |                          | 8             | 16125.20        |             | 15397.47       | 10406.55       | 4548.32        | 1364.08 |
|              | 128/2048                 | 2             | 7007.27         |             |                | 720.73         | 500.83         |         |
|              |                          | 4             | 12906.75        | 10761.53    | 8978.95        | 4736.61        | 2380.02        |         |
|              |                          | 8             | 19417.37        |             | 14822.93       | 6672.14        | 3815.08        | 1809.40 |
|              | 128/4096                 | 2             | 6183.85         |             |                | 369.29         | 251.24         |         |
|              |                          | 4             | 8859.54         | 7270.77     | 6073.48        | 2969.99        | 1634.82        |         |
|              |                          | 8             | 13969.95        |             | 10094.57       | 4358.77        | 2847.54        | 1313.78 |
|              | 2048/128                 | 2             | 696.59          |             |                | 301.46         | 140.88         |         |
|              |                          | 4             | 1044.35         | 1000.55     | 1022.06        | 681.72         | 278.76         |         |
|              |                          | 8             | 2018.47         |             | 1933.15        | 1279.46        | 543.73         | 163.36  |
|              | 2048/2048                | 2             | 3525.18         |             |                |                | 87.54          |         |
|              |                          | 4             | 6550.76         | 4859.38     | 4870.26        | 2379.66        | 1209.69        |         |
|              |                          | 8             | 9706.95         |             | 7670.04        | 3692.41        | 2192.28        | 895.23  |
| LLaMA v2 70B | 128/128                  | 2             | 6355.16         |             |                | 2927.71        | 1374.05        |         |
|              |                          | 4             | 10818.97        | 10819.19    | 10754.99       | 6603.10        | 2765.94        |         |
|              |                          | 8             | 16667.25        |             | 16074.84       | 11369.11       | 4796.89        | 1402.92 |
|              | 128/2048                 | 2             | 6185.77         |             |                | 668.52         | 445.04         |         |
|              |                          | 4             | 12884.76        | 11356.48    | 8870.71        | 5067.06        | 2710.53        |         |
|              |                          | 8             | 19053.13        |             | 17534.62       | 8805.16        | 5665.93        | 2203.33 |
|              | 128/4096                 | 2             | 4873.24         |             |                | 334.10         | 215.70         |         |
|              |                          | 4             | 8664.90         | 6311.85     | 7564.99        | 3354.02        | 1884.46        |         |
|              |                          | 8             | 15110.32        |             | 10584.03       | 5373.10        | 3672.80        | 1787.76 |
|              | 2048/128                 | 2             | 732.09          |             |                | 302.49         | 141.70         |         |
|              |                          | 4             | 1272.90         | 1269.58     | 1265.80        | 774.93         | 320.79         |         |
|              |                          | 8             | 2015.77         |             | 1943.96        | 1355.78        | 569.48         | 165.52  |
|              | 2048/2048                | 2             | 3508.50         |             |                | 321.95         | 212.97         |         |
|              |                          | 4             | 6642.69         | 5545.83     | 4889.26        | 2439.10        | 1276.58        |         |
|              |                          | 8             | 10178.71        |             | 8071.77        | 4275.74        | 2589.60        | 1083.45 |
| Falcon 180B  | 128/128                  | 4             | 5129.55         |             |                |                |                |         |
|              |                          | 8             | 8370.98         |             | 8268.72        |                |                |         |
|              | 128/2048                 | 4             | 7823.79         |             |                |                |                |         |
|              |                          | 8             | 13278.59        |             | 13107.48       |                |                |         |
|              | 128/4096                 | 4             | 6374.10         |             |                |                |                |         |
|              |                          | 8             | 12660.89        |             | 10493.79       |                |                |         |
|              | 2048/128                 | 4             | 601.67          |             |                |                |                |         |
|              |                          | 8             | 1002.57         |             | 991.22         |                |                |         |
|              | 2048/2048                | 4             | 3869.76         |             |                |                |                |         |
|              |                          | 8             | 7134.33         |             | 6386.83        |                |                |         |
"""

TABLES['v0.13.0'] = """\
|                 |                          | **GPU**       | **H200 141GB HBM3** | **GH200 120GB** | **H100 80GB HBM3** | **H100 80GB HBM3** | **A100-SXM4-80GB** | **L40S** |
|                 |                          | **Precision** | **FP8**             | **FP8**         | **FP8**            | **FP16**           | **FP16**           | **FP8**  |
| **Model**       | **Input/Output Lengths** | **TP**        |                     |                 |                    |                    |                    |          |
| GPTJ 6B         | 128/128                  | 1             | 24,533.54           | 22,368.50       | 24,318.61          | 12,936.63          | 5,964.19           | 7,688.44 |
|                 | 128/2048                 | 1             | 8,375.67            | 6,588.73        | 7,829.91           | 3,931.61           | 2,215.88           | 1,842.82 |
|                 | 128/4096                 | 1             | 5,048.59            | 3,662.81        | 3,955.28           | 2,041.06           | 1,118.12           | 980.23   |
|                 | 2048/128                 | 1             | 2,770.27            | 2,520.37        | 2,698.08           | 1,479.48           | 650.09             | 746.54   |
|                 | 5000/500                 | 1             | 1,791.39            | 1,449.23        | 1,623.17           | 818.80             | 436.85             | 413.33   |
|                 | 500/2000                 | 1             | 6,770.60            | 5,565.62        | 6,149.65           | 3,030.03           | 1,673.05           | 1,538.45 |
|                 | 1000/1000                | 1             | 6,465.73            | 5,580.37        | 6,078.80           | 2,797.48           | 1,673.45           | 1,531.57 |
|                 | 2048/2048                | 1             | 3,637.42            | 2,998.01        | 3,060.80           | 1,285.08           | 845.83             | 753.55   |
| LLaMA v3.1 8B   | 128/128                  | 1             | 28,125.59           | 26,045.60       | 27,147.22          | 15,647.83          | 6,687.04           | 8,548.90 |
|                 | 128/2048                 | 1             | 22,989.20           | 16,497.79       | 19,221.02          | 8,882.95           | 4,918.53           | 4,988.61 |
|                 | 128/4096                 | 1             | 16,077.62           | 9,637.91        | 11,856.11          | 5,462.96           | 3,054.46           | 2,768.91 |
|                 | 2048/128                 | 1             | 3,625.83            | 3,357.60        | 3,497.30           | 1,859.37           | 796.17             | 1,000.90 |
|                 | 5000/500                 | 1             | 3,823.76            | 3,217.40        | 3,276.69           | 1,687.74           | 788.66             | 872.14   |
|                 | 500/2000                 | 1             | 19,382.37           | 15,128.77       | 13,996.05          | 6,834.76           | 3,929.83           | 3,911.14 |
|                 | 1000/1000                | 1             | 16,435.21           | 12,355.41       | 13,411.43          | 7,160.92           | 3,592.16           | 3,648.21 |
|                 | 2048/2048                | 1             | 11,072.97           | 7,850.75        | 8,851.23           | 4,152.21           | 2,269.78           | 2,055.78 |
|                 | 20000/2000               | 1             | 1,634.98            | 1,200.89        | 1,278.04           | 595.89             | 316.43             | 263.75   |
| LLaMA v3 8B     | 128/128                  | 1             | 27,940.47           | 26,117.13       | 27,156.81          | 15,489.11          | 6,656.98           | 8,734.57 |
|                 | 128/2048                 | 1             | 23,228.98           | 16,417.04       | 19,209.17          | 8,901.43           | 4,967.37           | 5,004.93 |
|                 | 128/4096                 | 1             | 15,980.94           | 9,351.95        | 11,889.67          | 5,455.91           | 3,053.27           | 2,768.15 |
|                 | 2048/128                 | 1             | 3,631.45            | 3,339.90        | 3,476.37           | 1,918.56           | 796.28             | 1,050.68 |
|                 | 5000/500                 | 1             | 3,836.98            | 3,186.22        | 3,279.24           | 1,668.42           | 792.95             | 860.31   |
|                 | 500/2000                 | 1             | 19,725.45           | 15,241.74       | 14,218.30          | 6,816.62           | 3,899.64           | 3,990.73 |
|                 | 1000/1000                | 1             | 16,201.60           | 12,049.81       | 13,371.60          | 7,041.47           | 3,617.10           | 3,679.10 |
|                 | 2048/2048                | 1             | 11,097.69           | 7,255.55        | 8,852.87           | 4,251.45           | 2,269.68           | 2,048.94 |
| LLaMA v2 7B     | 128/128                  | 1             | 19,549.13           | 17,823.45       | 19,298.99          | 11,436.31          | 5,238.68           | 6,396.62 |
|                 | 128/2048                 | 1             | 7,675.14            | 5,438.53        | 6,607.33           | 2,985.61           | 1,807.39           | 1,566.03 |
|                 | 128/4096                 | 1             | 4,397.83            | 3,310.09        | 3,628.46           | 1,575.35           | 957.24             | 821.83   |
|                 | 2048/128                 | 1             | 2,392.31            | 2,064.18        | 2,304.02           | 1,157.55           | 560.35             | 619.83   |
|                 | 5000/500                 | 1             | 1,570.37            | 1,250.11        | 1,419.09           | 624.75             | 366.39             | 347.03   |
|                 | 500/2000                 | 1             | 6,044.15            | 4,717.51        | 5,188.69           | 2,382.75           | 1,408.58           | 1,231.78 |
|                 | 1000/1000                | 1             | 5,896.10            | 4,825.24        | 5,208.97           | 2,462.65           | 1,431.92           | 1,277.79 |
|                 | 2048/2048                | 1             | 3,193.42            | 2,693.21        | 2,792.53           | 1,263.11           | 734.38             | 641.47   |
| Mistral 7B      | 128/128                  | 1             | 30,152.19           | 27,738.08       | 29,672.75          | 16,711.12          | 6,863.59           | 9,676.88 |
|                 | 128/2048                 | 1             | 24,742.09           | 17,528.14       | 20,318.60          | 9,774.11           | 5,321.44           | 5,437.25 |
|                 | 128/4096                 | 1             | 16,905.49           | 10,671.38       | 12,715.46          | 5,740.41           | 3,257.23           | 2,941.08 |
|                 | 2048/128                 | 1             | 3,676.37            | 3,369.77        | 3,502.83           | 1,893.42           | 796.00             | 996.65   |
|                 | 5000/500                 | 1             | 3,890.07            | 3,401.45        | 3,358.65           | 1,740.69           | 807.07             | 904.45   |
|                 | 500/2000                 | 1             | 20,788.70           | 15,035.59       | 15,962.94          | 7,494.80           | 4,168.89           | 4,088.52 |
|                 | 1000/1000                | 1             | 17,620.46           | 13,362.84       | 14,213.48          | 7,281.07           | 3,794.31           | 3,972.63 |
|                 | 2048/2048                | 1             | 11,747.88           | 8,599.03        | 9,200.19           | 4,349.39           | 2,320.50           | 2,170.16 |
|                 | 20000/2000               | 1             | 1,693.41            | 1,271.85        | 1,299.05           | 609.91             | 324.52             | 276.19   |
| LLaMA v3.1 405B | 128/128                  | 8             | 3,734.50            |                 |                    |                    |                    |          |
|                 | 128/2048                 | 8             | 3,039.70            |                 |                    |                    |                    |          |
|                 | 128/4096                 | 8             | 3,144.97            |                 |                    |                    |                    |          |
|                 | 2048/128                 | 8             | 454.17              |                 |                    |                    |                    |          |
|                 | 5000/500                 | 8             | 459.91              |                 |                    |                    |                    |          |
|                 | 500/2000                 | 8             | 2,967.98            |                 |                    |                    |                    |          |
|                 | 1000/1000                | 8             | 2,259.32            |                 |                    |                    |                    |          |
|                 | 2048/2048                | 8             | 2,067.15            |                 |                    |                    |                    |          |
|                 | 20000/2000               | 8             | 447.67              |                 |                    |                    |                    |          |
| LLaMA v3.1 70B  | 128/128                  | 1             | 3,923.61            | 2,998.99        | 2,168.72           |                    |                    |          |
|                 |                          | 2             | 5,358.16            | 1,839.02        | 5,215.12           | 3,156.10           | 1,340.20           |          |
|                 |                          | 4             | 8,969.59            | 8,655.98        | 8,677.59           | 5,845.53           | 2,426.46           | 1,434.63 |
|                 |                          | 8             | 16,449.68           |                 | 15,711.60          | 10,643.75          | 4,491.42           | 1,365.36 |
|                 | 128/2048                 | 1             | 3,503.59            | 1,343.53        | 344.22             |                    |                    |          |
|                 |                          | 2             | 7,068.42            | 1,146.08        | 5,654.43           | 801.82             | 498.44             |          |
|                 |                          | 4             | 12,890.95           | 10,358.10       | 9,377.87           | 4,791.11           | 2,460.91           | 1,748.87 |
|                 |                          | 8             | 19,947.02           |                 | 15,168.97          | 6,892.18           | 4,148.33           | 1,890.62 |
|                 | 128/4096                 | 1             | 2,314.83            |                 |                    |                    |                    |          |
|                 |                          | 2             | 6,227.19            | 896.56          | 3,302.41           | 413.22             | 268.86             |          |
|                 |                          | 4             | 10,059.64           | 6,628.22        | 6,501.69           | 3,056.98           | 1,660.93           | 1,180.87 |
|                 |                          | 8             | 14,393.28           |                 | 9,699.99           | 4,238.15           | 2,705.77           | 1,417.60 |
|                 | 2048/128                 | 1             | 459.73              | 372.44          | 211.51             |                    |                    |          |
|                 |                          | 2             | 689.30              | 280.61          | 690.05             | 323.66             | 143.39             |          |
|                 |                          | 4             | 1,047.96            | 1,015.14        | 1,016.24           | 672.37             | 278.87             | 167.87   |
|                 |                          | 8             | 2,061.19            |                 | 1,964.49           | 1,273.97           | 539.57             | 163.91   |
|                 | 5000/500                 | 1             | 534.79              | 283.19          | 112.21             |                    |                    |          |
|                 |                          | 2             | 943.78              | 337.04          | 897.36             | 224.31             | 115.63             |          |
|                 |                          | 4             | 1,437.45            | 1,383.61        | 1,329.82           | 851.12             | 361.39             | 235.90   |
|                 |                          | 8             | 2,795.95            |                 | 2,472.69           | 1,438.10           | 679.27             | 224.33   |
|                 | 500/2000                 | 1             | 2,758.24            | 1,083.48        |                    |                    |                    |          |
|                 |                          | 2             | 6,063.53            | 851.46          | 4,347.69           | 652.34             | 423.06             |          |
|                 |                          | 4             | 10,061.89           | 9,090.78        | 8,378.16           | 3,441.34           | 2,072.88           | 1,436.41 |
|                 |                          | 8             | 16,139.49           |                 | 10,790.85          | 5,792.17           | 3,115.20           | 1,512.78 |
|                 | 1000/1000                | 1             | 2,539.65            | 728.79          |                    |                    |                    |          |
|                 |                          | 2             | 4,572.03            | 1,223.92        | 3,880.41           | 737.40             | 451.82             |          |
|                 |                          | 4             | 7,612.56            | 6,705.02        | 6,553.00           | 3,655.64           | 1,731.86           | 1,113.18 |
|                 |                          | 8             | 12,660.86           |                 | 11,121.10          | 5,599.45           | 3,013.95           | 1,120.73 |
|                 | 2048/2048                | 1             | 1,753.58            | 611.08          | 161.60             |                    |                    |          |
|                 |                          | 2             | 3,407.26            | 626.26          | 2,432.55           |                    | 108.91             |          |
|                 |                          | 4             | 6,565.77            | 4,864.55        | 4,948.83           | 2,396.06           | 1,220.93           | 855.44   |
|                 |                          | 8             | 9,948.56            |                 | 8,527.52           | 3,819.60           | 2,103.68           | 924.89   |
|                 | 20000/2000               | 1             | 262.82              | 88.89           |                    |                    |                    |          |
|                 |                          | 2             | 598.19              | 177.04          | 414.17             |                    |                    |          |
|                 |                          | 4             | 1,047.27            | 958.88          | 856.31             | 375.85             | 187.42             | 140.73   |
|                 |                          | 8             | 1,793.52            |                 | 1,359.27           | 650.78             | 344.41             | 122.04   |
| LLaMA v3 70B    | 128/128                  | 1             | 3,924.02            | 3,161.73        | 2,177.84           |                    |                    |          |
|                 |                          | 2             | 5,388.22            | 1,551.84        | 5,205.80           | 3,186.61           | 1,321.55           |          |
|                 |                          | 4             | 8,958.95            | 8,618.55        | 8,678.68           | 5,857.16           | 2,424.68           | 1,432.46 |
|                 |                          | 8             | 16,375.41           |                 | 15,703.26          | 10,627.36          | 4,490.19           | 1,333.09 |
|                 | 128/2048                 | 1             | 3,519.24            | 1,346.37        | 353.68             |                    |                    |          |
|                 |                          | 2             | 7,071.54            | 862.54          | 5,878.06           | 802.98             | 512.11             |          |
|                 |                          | 4             | 12,876.38           | 10,015.23       | 8,929.23           | 4,768.27           | 2,458.73           | 1,737.31 |
|                 |                          | 8             | 20,013.92           |                 | 15,171.91          | 6,875.97           | 3,906.35           | 1,892.41 |
|                 | 128/4096                 | 1             | 2,310.85            |                 |                    |                    |                    |          |
|                 |                          | 2             | 6,199.95            | 602.98          | 3,311.05           | 413.29             | 269.02             |          |
|                 |                          | 4             | 9,633.49            | 7,370.19        | 6,489.95           | 3,053.89           | 1,677.51           | 1,199.71 |
|                 |                          | 8             | 14,552.09           |                 | 9,632.02           | 4,259.39           | 2,697.61           | 1,358.34 |
|                 | 2048/128                 | 1             | 458.75              | 371.70          | 210.27             |                    |                    |          |
|                 |                          | 2             | 694.00              | 277.85          | 692.74             | 321.71             | 144.61             |          |
|                 |                          | 4             | 1,048.84            | 1,016.03        | 1,022.77           | 690.10             | 279.06             | 168.52   |
|                 |                          | 8             | 2,072.33            |                 | 1,976.76           | 1,273.41           | 542.93             | 158.63   |
|                 | 5000/500                 | 1             | 533.37              | 303.33          | 112.68             |                    |                    |          |
|                 |                          | 2             | 936.82              | 379.62          | 899.29             | 224.65             | 115.00             |          |
|                 |                          | 4             | 1,442.76            | 1,384.62        | 1,326.95           | 853.73             | 361.06             | 235.19   |
|                 |                          | 8             | 2,797.36            |                 | 2,483.56           | 1,437.15           | 678.70             | 225.15   |
|                 | 500/2000                 | 1             | 2,763.89            | 1,074.62        | 293.47             |                    |                    |          |
|                 |                          | 2             | 6,054.46            | 1,109.13        | 4,356.55           | 683.11             | 423.82             |          |
|                 |                          | 4             | 10,103.08           | 7,325.93        | 8,370.32           | 3,436.29           | 2,064.47           | 1,412.78 |
|                 |                          | 8             | 16,857.45           |                 | 10,760.65          | 5,665.02           | 3,159.89           | 1,517.76 |
|                 | 1000/1000                | 1             | 2,540.45            | 1,164.45        |                    |                    |                    |          |
|                 |                          | 2             | 4,590.38            | 1,040.64        | 3,879.25           | 768.53             | 453.73             |          |
|                 |                          | 4             | 7,606.92            | 6,655.61        | 6,547.23           | 3,655.19           | 1,732.86           | 1,117.53 |
|                 |                          | 8             | 12,660.32           |                 | 11,155.47          | 5,617.24           | 2,894.58           | 1,126.50 |
|                 | 2048/2048                | 1             | 1,746.77            | 610.87          | 162.10             |                    |                    |          |
|                 |                          | 2             | 3,405.72            | 738.51          | 2,548.70           |                    | 108.66             |          |
|                 |                          | 4             | 6,571.34            | 4,880.28        | 5,060.39           | 2,391.55           | 1,222.11           | 854.65   |
|                 |                          | 8             | 9,923.96            |                 | 8,480.48           | 3,826.38           | 2,181.07           | 927.54   |
| LLaMA v2 70B    | 128/128                  | 1             | 3,969.25            | 3,502.35        | 3,413.82           |                    |                    |          |
|                 |                          | 2             | 6,394.64            | 3,252.69        | 6,432.82           | 3,170.28           | 1,336.48           |          |
|                 |                          | 4             | 11,031.42           | 11,126.95       | 10,865.42          | 6,420.88           | 2,766.00           | 1,487.71 |
|                 |                          | 8             | 17,060.04           |                 | 16,384.83          | 11,146.15          | 4,742.74           | 1,404.99 |
|                 | 128/2048                 | 1             | 3,742.99            | 1,660.81        |                    |                    |                    |          |
|                 |                          | 2             | 6,453.25            | 1,335.80        | 5,775.34           | 757.21             | 476.46             |          |
|                 |                          | 4             | 13,869.67           | 11,098.69       | 9,536.82           | 5,274.27           | 2,686.16           | 1,880.22 |
|                 |                          | 8             | 19,220.48           |                 | 17,715.01          | 8,904.94           | 5,520.41           | 2,186.68 |
|                 | 128/4096                 | 1             | 2,459.63            |                 | 446.60             |                    |                    |          |
|                 |                          | 2             | 4,831.03            | 684.68          | 3,354.60           | 385.98             | 235.22             |          |
|                 |                          | 4             | 8,988.84            | 8,397.13        | 7,619.62           | 3,228.36           | 1,941.07           | 1,318.51 |
|                 |                          | 8             | 15,115.41           |                 | 12,506.95          | 5,996.81           | 3,539.36           | 1,782.93 |
|                 | 2048/128                 | 1             | 458.88              | 400.31          | 328.90             |                    |                    |          |
|                 |                          | 2             | 745.71              | 457.57          | 742.17             | 308.02             | 138.81             |          |
|                 |                          | 4             | 1,297.10            | 1,330.90        | 1,270.78           | 755.30             | 321.72             | 171.67   |
|                 |                          | 8             | 2,060.53            |                 | 2,009.57           | 1,348.71           | 561.71             | 160.37   |
|                 | 5000/500                 | 1             | 548.46              | 364.00          | 224.17             |                    |                    |          |
|                 |                          | 2             | 1,020.86            | 335.07          | 885.67             | 212.20             | 112.43             |          |
|                 |                          | 4             | 1,759.69            | 1,683.26        | 1,590.94           | 837.57             | 386.78             | 231.54   |
|                 |                          | 8             | 2,839.69            |                 | 2,546.12           | 1,570.91           | 709.66             | 238.59   |
|                 | 500/2000                 | 1             | 3,019.28            | 1,364.66        | 716.54             |                    |                    |          |
|                 |                          | 2             | 6,402.94            | 1,292.24        | 4,462.98           | 629.21             | 387.61             |          |
|                 |                          | 4             | 12,429.18           | 8,951.07        | 8,753.09           | 4,012.41           | 2,158.17           | 1,517.53 |
|                 |                          | 8             | 16,789.12           |                 | 15,260.29          | 7,384.79           | 4,104.80           | 1,739.28 |
|                 | 1000/1000                | 1             | 2,706.04            | 1,449.83        |                    |                    |                    |          |
|                 |                          | 2             | 4,693.24            | 960.39          | 3,958.45           | 736.68             | 425.70             |          |
|                 |                          | 4             | 8,557.11            | 7,278.64        | 6,817.41           | 3,866.05           | 1,876.40           | 1,188.91 |
|                 |                          | 8             | 13,483.04           |                 | 11,511.74          | 6,543.96           | 3,285.82           | 1,241.42 |
|                 | 2048/2048                | 1             | 1,911.20            | 798.50          | 412.37             |                    |                    |          |
|                 |                          | 2             | 3,408.82            | 767.24          | 2,551.21           | 388.82             | 226.60             |          |
|                 |                          | 4             | 6,702.46            | 5,354.80        | 5,212.02           | 2,512.22           | 1,316.92           | 891.95   |
|                 |                          | 8             | 10,348.65           |                 | 8,016.14           | 4,414.75           | 2,492.09           | 1,083.26 |
| Mixtral 8x7B    | 128/128                  | 2             | 25,135.25           | 8,512.51        | 24,572.90          | 15,395.59          | 5,927.88           |          |
|                 |                          | 4             | 42,394.61           | 40,148.01       | 40,309.25          | 27,747.43          | 11,205.51          | 6,784.44 |
|                 |                          | 8             | 54,648.80           |                 | 51,683.16          | 40,116.51          | 18,496.66          | 6,437.72 |
|                 | 128/2048                 | 2             | 29,412.17           | 3,271.02        | 20,938.80          | 7,391.51           | 4,278.79           |          |
|                 |                          | 4             | 52,603.13           | 43,071.34       | 40,580.94          | 21,332.15          | 10,946.58          | 7,475.05 |
|                 |                          | 8             | 70,427.00           |                 | 64,161.64          | 41,101.18          | 21,235.99          | 9,955.21 |
|                 | 128/4096                 | 2             | 21,312.11           | 2,254.56        |                    | 3,896.02           | 2,388.14           |          |
|                 |                          | 4             | 39,353.01           | 30,065.77       |                    |                    | 7,108.03           | 5,232.44 |
|                 |                          | 8             | 32,992.62           |                 | 47,860.65          | 27,261.67          | 15,943.70          | 8,081.21 |
|                 | 2048/128                 | 2             | 2,946.01            | 921.87          | 2,894.09           | 1,790.49           | 684.71             |          |
|                 |                          | 4             | 5,237.58            | 5,056.60        | 4,988.14           | 3,354.89           | 1,338.54           | 803.50   |
|                 |                          | 8             | 7,053.32            |                 | 6,559.63           | 5,072.46           | 2,244.39           | 753.39   |
|                 | 5000/500                 | 2             | 3,848.10            | 997.06          | 3,630.24           | 1,656.04           | 739.84             |          |
|                 |                          | 4             | 6,877.65            | 6,466.39        | 6,237.22           | 3,607.46           | 1,619.49           | 1,048.60 |
|                 |                          | 8             | 9,531.26            |                 | 8,709.34           | 6,237.96           | 2,927.13           | 1,109.25 |
|                 | 500/2000                 | 2             | 23,539.24           | 2,773.86        | 16,886.30          | 5,773.33           | 3,325.73           |          |
|                 |                          | 4             | 40,035.05           | 33,478.35       | 32,047.73          | 16,897.03          | 8,908.09           | 6,153.32 |
|                 |                          | 8             | 60,572.77           |                 | 41,597.80          | 31,392.32          | 16,954.54          | 7,980.34 |
|                 | 1000/1000                | 2             | 18,644.51           | 4,540.15        | 14,154.95          | 5,826.43           | 3,289.27           |          |
|                 |                          | 4             | 32,709.62           | 29,046.16       | 25,291.30          | 14,307.91          | 7,461.63           | 4,697.19 |
|                 |                          | 8             | 44,072.88           |                 | 40,628.46          | 27,633.48          | 13,741.62          | 5,706.17 |
|                 | 2048/2048                | 2             | 14,017.70           | 2,870.77        | 10,448.79          | 3,535.21           | 1,954.32           |          |
|                 |                          | 4             | 25,550.44           | 21,488.32       | 19,977.11          | 9,620.99           | 5,191.30           | 3,593.18 |
|                 |                          | 8             | 24,999.94           |                 | 31,678.85          | 19,372.52          | 10,572.07          | 4,860.61 |
|                 | 20000/2000               | 2             | 2,195.84            | 367.81          | 1,583.86           | 626.60             | 320.41             |          |
|                 |                          | 4             | 4,086.41            | 3,301.28        | 2,982.42           | 1,586.09           | 807.67             | 579.49   |
|                 |                          | 8             | 5,797.57            |                 | 5,163.91           | 3,106.98           | 1,653.55           | 821.64   |
"""

TABLES['v0.14.0'] = """\
|                 |                          | **GPU**       | **H200 141GB HBM3** | **H100 80GB HBM3** | **H100 80GB HBM3** | **A100-SXM4-80GB** | **A100-PCIE-80GB** | **L40S**  |
|                 |                          | **Precision** | **FP8**             | **FP8**            | **FP16**           | **FP16**           | **FP16**           | **FP8**   |
| **Model**       | **Input/Output Lengths** | **TP Size**   |                     |                    |                    |                    |                    |           |
| LLaMA v3 70B    | 1000/1000                | 1             | 2594.2199           | 464.5243           |                    |                    |                    |           |
|                 |                          | 2             | 4574.1197           | 4092.3267          | 776.9965           | 468.5805           | 259.1155           |           |
|                 |                          | 4             | 7612.2487           | 6925.0844          | 3730.2064          | 1765.9123          | 987.1971           | 1159.357  |
|                 |                          | 8             | 13075.5194          | 10733.0804         | 5963.0914          | 3054.8915          | 960.3737           | 1173.3517 |
|                 | 128/128                  | 1             | 3904.1639           | 2551.6384          |                    |                    |                    |           |
|                 |                          | 2             | 5343.8677           | 5191.7428          | 3183.9714          | 1334.903           | 806.1477           |           |
|                 |                          | 4             | 8829.1049           | 8540.5362          | 5837.9598          | 2421.4383          | 1275.5474          | 1427.9115 |
|                 |                          | 8             | 16359.1322          | 15498.2004         | 10597.6556         | 4474.1621          | 1223.1747          | 1377.473  |
|                 | 128/2048                 | 1             | 3613.7474           | 418.3639           |                    |                    |                    |           |
|                 |                          | 2             | 7112.2959           | 5852.0185          | 817.52             | 511.6257           |                    |           |
|                 |                          | 4             | 12772.8148          | 8998.3742          | 5072.0345          | 2484.2018          | 1471.9105          | 1771.4437 |
|                 |                          | 8             | 19722.5974          | 15099.0633         | 7554.2141          | 4463.6602          | 1589.1759          | 1953.7918 |
|                 | 128/4096                 | 1             | 2409.6881           |                    |                    |                    |                    |           |
|                 |                          | 2             | 5687.3482           | 3513.0941          | 413.3767           | 273.5871           |                    |           |
|                 |                          | 4             | 8937.3115           | 6718.5895          | 3093.7358          | 1688.0132          | 1231.8104          | 1279.2496 |
|                 |                          | 8             | 13976.1386          | 9279.1013          | 5001.2743          | 2948.5374          | 1350.794           | 1494.0776 |
|                 | 2048/128                 | 1             | 457.5772            | 241.7561           |                    |                    |                    |           |
|                 |                          | 2             | 699.5582            | 690.9961           | 328.0399           | 145.088            | 91.1746            |           |
|                 |                          | 4             | 1035.6523           | 1008.8318          | 670.6725           | 278.5717           | 150.2619           | 168.7886  |
|                 |                          | 8             | 2055.7245           | 1996.2653          | 1288.7599          | 546.9599           | 140.0144           | 160.2741  |
|                 | 2048/2048                | 1             | 1802.1116           | 204.0931           |                    |                    |                    |           |
|                 |                          | 2             | 3487.2497           | 2444.6903          | 165.6522           | 126.1101           |                    |           |
|                 |                          | 4             | 6126.7196           | 4850.8285          | 2386.6556          | 1230.1833          | 822.2269           | 876.6085  |
|                 |                          | 8             | 9784.0193           | 7432.6659          | 3991.2123          | 2144.3042          | 883.4809           | 994.94    |
|                 | 500/2000                 | 1             | 2822.7846           | 389.8823           |                    |                    |                    |           |
|                 |                          | 2             | 6175.7623           | 4601.857           | 687.5386           | 430.6093           |                    |           |
|                 |                          | 4             | 10783.8925          | 9018.9053          | 3698.3674          | 2113.3936          | 1248.8319          | 1468.7827 |
|                 |                          | 8             | 17631.9756          | 11375.9582         | 6321.3679          | 3673.5693          | 1321.8541          | 1636.4588 |
|                 | 5000/500                 | 1             | 532.2603            | 123.8543           |                    |                    |                    |           |
|                 |                          | 2             | 931.8255            | 897.4263           | 227.9005           | 117.5698           | 75.35              |           |
|                 |                          | 4             | 1399.7865           | 1316.2865          | 831.2804           | 362.3465           | 209.8052           | 234.7343  |
|                 |                          | 8             | 2725.1283           | 2469.5585          | 1446.3508          | 662.5725           | 202.0719           | 231.9027  |
| LLaMA v3.1 405B | 1000/1000                | 8             | 3391.0372           |                    |                    |                    |                    |           |
|                 | 128/128                  | 8             | 3766.2785           |                    |                    |                    |                    |           |
|                 | 128/2048                 | 8             | 5952.1416           |                    |                    |                    |                    |           |
|                 | 128/4096                 | 8             | 3944.117            |                    |                    |                    |                    |           |
|                 | 20000/2000               | 8             | 481.5732            |                    |                    |                    |                    |           |
|                 | 2048/128                 | 8             | 444.5735            |                    |                    |                    |                    |           |
|                 | 2048/2048                | 8             | 2604.8557           |                    |                    |                    |                    |           |
|                 | 500/2000                 | 8             | 4805.86             |                    |                    |                    |                    |           |
|                 | 5000/500                 | 8             | 655.9754            |                    |                    |                    |                    |           |
| LLaMA v3.1 70B  | 1000/1000                | 1             | 2585.0953           | 410.286            |                    |                    |                    |           |
|                 |                          | 2             | 4600.9616           | 4116.4444          | 785.4931           | 468.6383           | 257.972            |           |
|                 |                          | 4             | 7607.5304           | 6932.8808          | 3774.676           | 1762.6831          | 989.4082           | 1161.4814 |
|                 |                          | 8             | 13081.434           | 10730.156          | 5978.4573          | 3190.0211          | 959.8463           | 1188.1193 |
|                 | 128/128                  | 1             | 3897.2623           | 2459.6003          |                    |                    |                    |           |
|                 |                          | 2             | 5357.0227           | 5194.8171          | 3207.2866          | 1346.9692          | 806.7215           |           |
|                 |                          | 4             | 8826.9618           | 8542.3012          | 5846.8413          | 2420.8665          | 1272.6755          | 1438.0446 |
|                 |                          | 8             | 16382.9807          | 15533.1169         | 10649.4968         | 4572.3445          | 1212.0566          | 1381.7051 |
|                 | 128/2048                 | 1             | 3612.2603           | 445.7773           |                    |                    |                    |           |
|                 |                          | 2             | 7054.7235           | 5869.3998          | 822.1912           | 483.1299           |                    |           |
|                 |                          | 4             | 12763.4114          | 9017.4377          | 4982.6225          | 2492.4036          | 1435.236           | 1763.522  |
|                 |                          | 8             | 19266.0398          | 15190.1652         | 7605.5295          | 4254.2871          | 1609.2473          | 1944.1251 |
|                 | 128/4096                 | 1             | 2415.1981           |                    |                    |                    |                    |           |
|                 |                          | 2             | 5671.9561           | 3518.782           | 419.0178           | 272.9137           |                    |           |
|                 |                          | 4             | 8939.8227           | 6431.2702          | 3083.8794          | 1685.9677          | 1212.5416          | 1280.3778 |
|                 |                          | 8             | 13974.2854          | 9168.709           | 4981.9765          | 3067.5452          | 1310.091           | 1499.2441 |
|                 | 20000/2000               | 1             | 240.7202            |                    |                    |                    |                    |           |
|                 |                          | 2             | 614.318             | 397.6801           |                    |                    |                    |           |
|                 |                          | 4             | 1030.9528           | 851.8542           | 369.4269           | 179.5181           | 126.7676           | 140.5565  |
|                 |                          | 8             | 1898.9762           | 1354.5333          |                    | 362.9368           | 156.5767           | 141.1584  |
|                 | 2048/128                 | 1             | 458.1948            | 244.1842           |                    |                    |                    |           |
|                 |                          | 2             | 692.3911            | 697.3907           | 322.7016           | 144.7921           | 95.0306            |           |
|                 |                          | 4             | 1034.5773           | 1001.0771          | 688.0344           | 278.4018           | 150.6795           | 169.0386  |
|                 |                          | 8             | 2070.8157           | 1966.6072          | 1316.3086          | 550.4751           | 142.6166           | 163.6749  |
|                 | 2048/2048                | 1             | 1797.6743           | 209.1707           |                    |                    |                    |           |
|                 |                          | 2             | 3518.0774           | 2445.0093          | 166.792            | 126.1127           |                    |           |
|                 |                          | 4             | 6112.9026           | 4838.5272          | 2393.1359          | 1231.0359          | 823.4777           | 876.2254  |
|                 |                          | 8             | 9716.1934           | 7434.8117          | 4023.6978          | 2171.5323          | 858.6602           | 1001.3649 |
|                 | 500/2000                 | 1             | 2826.6665           |                    |                    |                    |                    |           |
|                 |                          | 2             | 6106.5855           | 4605.9226          | 700.5415           | 430.6129           |                    |           |
|                 |                          | 4             | 10816.8283          | 9205.3766          | 3781.082           | 2096.2441          | 1176.418           | 1470.0826 |
|                 |                          | 8             | 17693.705           | 13109.4437         | 6205.2658          | 3486.7891          | 1306.35            | 1639.2778 |
|                 | 5000/500                 | 1             | 533.6128            | 125.4236           |                    |                    |                    |           |
|                 |                          | 2             | 936.7014            | 886.6758           | 228.874            | 116.9529           | 76.1601            |           |
|                 |                          | 4             | 1386.4827           | 1313.893           | 849.1091           | 362.9361           | 209.2045           | 236.117   |
|                 |                          | 8             | 2711.5057           | 2444.9643          | 1420.5163          | 670.3742           | 203.8008           | 230.3084  |
| LLaMA v3.1 8B   | 1000/1000                | 1             | 16414.6988          | 14108.0361         | 7054.5156          | 3634.3886          | 3165.3542          | 3726.7552 |
|                 | 128/128                  | 1             | 27778.8885          | 26933.1886         | 15571.6549         | 6701.7958          | 5338.0166          | 8639.7933 |
|                 | 128/2048                 | 1             | 22948.5383          | 18995.2523         | 9150.7477          | 4963.4443          | 4250.6391          | 5101.6652 |
|                 | 128/4096                 | 1             | 15583.3035          | 11815.449          | 5368.9227          | 3011.3335          | 2568.5398          | 2774.5363 |
|                 | 20000/2000               | 1             | 1649.5453           | 1301.4754          | 562.8735           | 316.533            | 291.4776           | 270.5404  |
|                 | 2048/128                 | 1             | 3619.4309           | 3460.3545          | 1904.3259          | 795.389            | 611.8446           | 986.9134  |
|                 | 2048/2048                | 1             | 11032.9729          | 8777.6623          | 4159.6857          | 2264.9513          | 2011.1215          | 2018.303  |
|                 | 500/2000                 | 1             | 19510.4015          | 14993.328          | 7498.3331          | 3945.1912          | 3374.7133          | 4065.3921 |
|                 | 5000/500                 | 1             | 3787.6721           | 3258.2001          | 1708.0353          | 790.6631           | 703.56             | 855.9822  |
| Mistral 7B      | 1000/1000                | 1             | 17739.1436          | 14986.7562         | 7697.1418          | 3804.5585          | 3333.4754          | 3981.4799 |
|                 | 128/128                  | 1             | 30094.9137          | 29341.284          | 16238.937          | 6914.2184          | 5491.7418          | 9127.5052 |
|                 | 128/2048                 | 1             | 24671.5477          | 20941.6631         | 9708.1161          | 5303.4318          | 4402.3044          | 5357.3405 |
|                 | 128/4096                 | 1             | 16454.0833          | 12780.3724         | 5800.4957          | 3235.0678          | 2825.7896          | 2879.9833 |
|                 | 20000/2000               | 1             | 1676.0415           | 1317.9654          | 569.7589           | 324.5936           | 281.4751           | 286.353   |
|                 | 2048/128                 | 1             | 3649.1462           | 3492.3042          | 1929.3126          | 800.9286           | 617.0932           | 1019.75   |
|                 | 2048/2048                | 1             | 11403.6968          | 8974.7383          | 4367.8733          | 2331.8112          | 1988.3496          | 2184.3861 |
|                 | 500/2000                 | 1             | 20819.4592          | 15992.3357         | 7947.4257          | 4189.395           | 3603.4489          | 4286.3867 |
|                 | 5000/500                 | 1             | 3840.0108           | 3340.7385          | 1707.2611          | 807.4561           | 722.8385           | 881.7336  |
| Mixtral 8x22B   | 1000/1000                | 8             | 18557.43            | 16918.03           | 9759.888           | 4753.6273          |                    | 2128.4403 |
|                 | 128/128                  | 8             | 25179.4765          | 23729.5293         | 16421.3182         | 6948.5923          |                    | 2488.6297 |
|                 | 128/2048                 | 8             | 27492.4926          | 24556.7807         | 12303.4168         | 7246.7172          |                    | 3540.0067 |
|                 | 128/4096                 | 8             | 19718.8648          | 17755.0018         | 7474.3817          | 4696.6123          |                    | 2568.3114 |
|                 | 20000/2000               | 8             | 2897.182            | 2189.606           | 1118.8294          | 594.8509           |                    | 309.0799  |
|                 | 2048/128                 | 8             | 3093.8418           | 2917.1362          | 1994.0127          | 825.3934           |                    | 294.7706  |
|                 | 2048/2048                | 8             | 13795.9827          | 12487.6502         | 5857.8831          | 3377.8371          |                    | 1694.6176 |
|                 | 500/2000                 | 8             | 24637.473           | 19997.3914         | 10637.6598         | 6007.619           |                    | 2976.9633 |
|                 | 5000/500                 | 8             | 3889.2745           | 3578.4843          | 2211.2377          | 1028.3843          |                    | 420.2156  |
| Mixtral 8x7B    | 1000/1000                | 2             | 18712.2046          | 15931.8663         | 6052.876           | 3276.6186          | 1907.8817          |           |
|                 |                          | 4             | 32834.0923          | 28015.1981         | 15509.1538         | 7357.1613          | 4737.0179          | 5060.8399 |
|                 |                          | 8             | 44410.7533          | 40573.0499         | 27684.9381         | 13948.1533         | 4970.9287          | 5725.9638 |
|                 | 128/128                  | 2             | 24970.5594          | 24321.9927         | 15334.2103         | 5915.3897          | 3810.1846          |           |
|                 |                          | 4             | 42500.5855          | 40182.7271         | 27718.9857         | 11328.7486         | 6026.9206          | 6769.9441 |
|                 |                          | 8             | 54304.0436          | 51030.9048         | 40119.3268         | 17918.1146         | 5573.7682          | 6422.4308 |
|                 | 128/2048                 | 2             | 29314.1475          | 20945.7816         | 7409.9253          | 4284.3035          | 2248.1815          |           |
|                 |                          | 4             | 52680.8353          | 40668.5928         | 21293.1761         | 10929.0182         | 7353.7405          | 7506.7612 |
|                 |                          | 8             | 70409.1968          | 64529.9982         | 40839.3077         | 21058.2144         | 8866.251           | 9907.6896 |
|                 | 128/4096                 | 2             | 21520.4385          | 12070.6724         | 3928.6678          | 2302.964           | 1171.966           |           |
|                 |                          | 4             | 32550.5267          | 29120.2002         | 11678.0071         | 6538.1511          | 5176.9632          | 4958.7004 |
|                 |                          | 8             | 40373.4857          | 36357.7861         | 21628.821          | 13565.7778         | 7209.2336          | 8271.7938 |
|                 | 20000/2000               | 2             | 2204.1378           | 1659.5907          | 622.2717           | 321.9839           | 185.6671           |           |
|                 |                          | 4             | 4047.7473           | 3290.9457          | 1602.0208          | 778.7285           | 572.4282           | 587.1759  |
|                 |                          | 8             | 6561.6849           | 5328.5261          | 3113.2047          | 1645.8114          | 750.5372           | 828.8471  |
|                 | 2048/128                 | 2             | 2958.0873           | 2883.5166          | 1796.5451          | 687.7251           | 465.1585           |           |
|                 |                          | 4             | 5229.8744           | 4972.6818          | 3354.994           | 1351.7191          | 728.4943           | 812.0143  |
|                 |                          | 8             | 7030.9766           | 6532.721           | 5025.3047          | 2248.6418          | 677.9886           | 771.3656  |
|                 | 2048/2048                | 2             | 13842.834           | 9334.0732          | 3503.0218          | 1997.1923          | 1060.8946          |           |
|                 |                          | 4             | 22389.4914          | 20185.8212         | 9143.2741          | 4963.8758          | 3520.3659          | 3453.8076 |
|                 |                          | 8             | 28975.322           | 26176.9163         | 19291.8278         | 10552.9732         | 4590.187           | 4929.7228 |
|                 | 500/2000                 | 2             | 23459.0411          | 18185.6392         | 6023.3308          | 3438.6964          | 1817.11            |           |
|                 |                          | 4             | 39971.0236          | 31693.8787         | 17087.037          | 8930.3495          | 6117.5624          | 6434.9178 |
|                 |                          | 8             | 60721.462           | 48842.8084         | 31358.2791         | 17034.706          | 7118.0767          | 8130.8026 |
|                 | 5000/500                 | 2             | 3742.5293           | 3563.8228          | 1648.9041          | 733.1921           | 448.6716           |           |
|                 |                          | 4             | 6602.3877           | 6020.6267          | 3543.6819          | 1603.8223          | 948.0567           | 1047.3212 |
|                 |                          | 8             | 8862.8164           | 8214.9445          | 5968.7734          | 2813.1531          | 969.817            | 1098.3081 |
"""

TABLES['v0.14.0-serving'] = """\
| **Model**       | **GPU**            | **TP**  | **Input Length** | **Output Length** | **QPS** | **Tput(req/s)**  | **Mean TTFT(ms)**  | **Mean ITL(ms)**   | **Total Token Tput (tok/s)**  | **Output Tput (tok/s)** |
|LLaMA 3.1 70B|H100 80GB HBM3|4|467|256|2|2|62|21|1406|498||
||||||4|4|68|24|2750|973|
||||||8|7|92|32|5256|1860|
||||||16|12|175|66|8941|3164|
||||||32|16|1229|86|11537|4083|
||||||INF|16|9123|85|11593|4103|
||||467|16|2|2|53|18|844|28|
||||||4|4|58|20|1908|63|
||||||8|8|71|24|3795|126|
||||||16|16|109|38|7492|248|
||||||32|28|1197|482|13655|452|
||||||INF|28|9126|548|13719|454|
||||202|214|2|2|48|20|780|401|
||||||4|4|51|22|1499|771|
||||||8|7|57|25|2702|1390|
||||||16|11|74|32|4364|2245|
||||||32|14|116|42|5837|3003|
||||||INF|16|4482|50|6725|3459|
|LLaMA 3.1 8B||1|467|256|2|2|23|8|1423|504|
||||||4|4|24|9|2624|929|
||||||8|8|26|9|5535|1959|
||||||16|15|30|11|10636|3765|
||||||32|26|50|19|19138|6774|
||||||INF|37|3335|39|26614|9420|
||||467|16|2|2|19|7|956|32|
||||||4|4|20|7|1910|63|
||||||8|8|22|7|3808|126|
||||||16|16|24|8|7567|251|
||||||32|31|29|10|14894|493|
||||||INF|79|3280|193|38319|1269|
||||202|214|2|2|19|7|809|416|
||||||4|4|20|8|1586|816|
||||||8|7|21|9|3047|1568|
||||||16|13|23|10|5597|2879|
||||||32|23|27|11|9381|4825|
||||||INF|39|1657|21|16117|8291|
|LLaMA 3.1 70B|H200 131GB HBM3|4|467|256|2|2|58|18|1411|499|
||||||4|4|63|20|2770|980|
||||||8|7|84|27|5328|1886|
||||||16|13|165|60|9224|3264|
||||||32|16|1279|83|11800|4176|
||||||INF|16|9222|83|11826|4185|
||||467|16|2|2|50|15|956|32|
||||||4|4|55|16|1909|63|
||||||8|8|67|20|3799|126|
||||||16|16|103|33|7499|248|
||||||32|28|1259|485|13586|450|
||||||INF|29|9074|546|13792|457|
||||202|214|2|2|43|17|793|408|
||||||4|4|46|18|1524|784|
||||||8|7|51|21|2796|1438|
||||||16|11|67|28|4639|2386|
||||||32|15|112|39|6288|3235|
||||||INF|17|4480|48|7230|3719|
|LLaMA 3.1 8B|H200 131GB HBM3|1|467|256|2|2|21|6|1425|504|
||||||4|4|23|7|2828|1001|
||||||8|8|24|7|5567|1971|
||||||16|15|27|9|10761|3809|
||||||32|27|44|16|19848|7025|
||||||INF|40|3237|36|28596|10121|
||||467|16|2|2|18|5|956|32|
||||||4|4|19|6|1910|63|
||||||8|8|20|6|3810|126|
||||||16|16|22|7|7567|250|
||||||32|31|27|9|14927|494|
||||||INF|81|3227|190|39007|1291|
||||202|214|2|2|17|6|812|418|
||||||4|4|18|6|1597|822|
||||||8|7|19|7|3088|1589|
||||||16|14|20|8|5771|2969|
||||||32|24|24|9|9931|5109|
||||||INF|43|1665|19|17861|9189|
"""

TABLES['v0.15.0'] = """\
| | GPU| | H100 80GB HBM3| | A100-SXM4-80GB| A100-PCIE-80GB| L40S| GH200 96GB HBM3 CG1 |
| | Precision| | FP8| Mixed| Mixed| Mixed| FP8| FP8 |
| Model| TP Size| Runtime Input/Output Lengths| | | | | |
| LLaMA v3 70B| 1| 128, 128| 3197.73| | | | | 4023.31
| | | 128, 2048| 826.72| | | | | 1855.98
| | | 128, 4096| | | | | | 915.15
| | | 500, 2000| 658.87| | | | | 1483.67
| | | 1000, 1000| 772.64| | | | | 1587.16
| | | 2048, 128| 331.26| | | | | 425.89
| | | 2048, 2048| 383.46| | | | | 823.43
| | | 5000, 500| 217.12| | | | | 391.38
| | 2| 128, 128| 6529.47| 3137.86| 1316.68| 792.95| |
| | | 128, 2048| 6008.16| 783.76| 532.07| | |
| | | 128, 4096| 3561.24| 404.23| 285.37| | |
| | | 500, 2000| 4792.7| 658.7| 436.46| | |
| | | 1000, 1000| 4221.4| 759.56| 484.59| 268.09| |
| | | 2048, 128| 773.11| 318.58| 147.22| 96.65| |
| | | 2048, 2048| 2648.62| 373.71| 255.21| | |
| | | 5000, 500| 905.34| 224.99| 123.5| 75.54| |
| | 4| 128, 128| 10848.71| 6387.29| 2713.51| 1347.36| 1474|
| | | 128, 2048| 10973.67| 5767.81| 2684.63| 1414.31| 1912.29|
| | | 128, 4096| 7426.74| 3421.36| 1914.57| 1140.75| 1357.84|
| | | 500, 2000| 9575.94| 4311.78| 2181.56| 1276.59| 1602.99|
| | | 1000, 1000| 7234.67| 4027.52| 1876.99| 927.93| 1193.23|
| | | 2048, 128| 1318.11| 781.29| 319.91| 161.66| 174.02|
| | | 2048, 2048| 5185.7| 2584.66| 1339.76| 872.31| 910.92|
| | | 5000, 500| 1568.88| 855.16| 388.86| 216.5| 242.62|
| | 8| 128, 128| 15440.55| 10966.81| 4647.93| 962.8| 1381.32|
| | | 128, 2048| 16416.2| 10270.37| 5046.42| 1487.53| 2120.54|
| | | 128, 4096| 12247.71| 6932.27| 3672.17| 1391.51| 1855.21|
| | | 500, 2000| 14561.62| 8967.15| 4379.68| 1205.63| 1879.86|
| | | 1000, 1000| 11226.01| 6973.77| 3236.83| 883.65| 1244.32|
| | | 2048, 128| 2057.59| 1341.65| 558.45| 141.12| 164.34|
| | | 2048, 2048| 7813.57| 4518.75| 2395.15| 769.53| 1091.57|
| | | 5000, 500| 2564.74| 1612.14| 706.33| 217.62| 243.14|
| LLaMA v3.1 8B| 1| 128, 128| 27792.16| 16116.63| 6552.62| 5158.57| 8982.97| 30803.29
| | | 128, 2048| 19965.18| 9894.49| 5220.03| 4640.02| 5297.21| 20770.93
| | | 128, 4096| 13222.06| 5758.98| 3326.45| 2906.77| 2989.17| 12487.35
| | | 500, 2000| 15782.2| 7953.1| 4191.62| 3736.1| 4263.97| 19175.02
| | | 1000, 1000| 14797.28| 7721.07| 3753.46| 3328.02| 4013.95| 15955.43
| | | 2048, 128| 3496.41| 1972.07| 789.56| 630.86| 1055.55| 4011.99
| | | 2048, 2048| 8980.42| 4370.61| 2366.86| 2125.4| 2162.8| 9072.93
| | | 5000, 500| 3477.61| 1802.2| 816.09| 693.38| 972.2| 3957.15
| | | 20000, 2000| 1378.69| 621.58| 330.47| 298.79| 326.02| 1459.86
| LLaMA v3.1 70B| 1| 128, 128| 3173.65| | | | | 4108.23
| | | 128, 2048| 804.73| | | | | 1940.33
| | | 128, 4096| | | | | | 981.15
| | | 500, 2000| 652.24| | | | | 1526.49
| | | 1000, 1000| 775.07| | | | | 1575.4
| | | 2048, 128| 328.44| | | | | 453.06
| | | 2048, 2048| 388.02| | | | | 838.55
| | | 5000, 500| 217.98| | | | | 383.32
| | | 20000, 2000| | | | | | 124.38
| | 2| 128, 128| 6399.24| 3143.32| 1330.41| 790.66| |
| | | 128, 2048| 5920.14| 784.73| 532.31| | |
| | | 128, 4096| 3580.79| 418.75| 285.01| | |
| | | 500, 2000| 4775.52| 660.68| 437.64| | |
| | | 1000, 1000| 4247.38| 785.36| 483.87| 267.63| |
| | | 2048, 128| 774.11| 315.43| 144.88| 94.83| |
| | | 2048, 2048| 2667.23| 384.36| 259.65| 137.09| |
| | | 5000, 500| 901.84| 210.7| 124.33| 76.77| |
| | | 20000, 2000| 410.93| | | | |
| | 4| 128, 128| 10589.19| 6392.74| 2716.71| 1192.33| 1469.28|
| | | 128, 2048| 11063.97| 5742.27| 2663.76| 1385.61| 1911.43|
| | | 128, 4096| 7428.89| 3457.03| 1913.13| 1206.15| 1357.83|
| | | 500, 2000| 9504.33| 4375.09| 2193.81| 1248.45| 1599.38|
| | | 1000, 1000| 7306.35| 4075.52| 1889.72| 999.4| 1187.23|
| | | 2048, 128| 1316.33| 779.81| 320.96| 162.09| 176.41|
| | | 2048, 2048| 5166.41| 2609.39| 1341.99| 874.11| 909.3|
| | | 5000, 500| 1566.63| 874.96| 389.99| 218.29| 242.95|
| | | 20000, 2000| 915.06| 406.36| 209.39| 141.13| 158.35|
| | 8| 128, 128| 15427.05| 10959.63| 4595.66| 943.87| 1381.25|
| | | 128, 2048| 16533.07| 10252.11| 4967.17| 1605.66| 2157.58|
| | | 128, 4096| 12008.26| 6915.81| 3594.1| 1449.32| 1895.68|
| | | 500, 2000| 14508.43| 8942.09| 4349.21| 1238.68| 1877.86|
| | | 1000, 1000| 11086.68| 6983.63| 3285.33| 907.21| 1242.34|
| | | 2048, 128| 2064.53| 1351.25| 556.48| 140.49| 163.53|
| | | 2048, 2048| 7768.15| 4515.31| 2464.13| 811.88| 1092.72|
| | | 5000, 500| 2533.55| 1589.18| 700.7| 212.07| 242.61|
| | | 20000, 2000| 1447.5| 847.42| 399.8| 140.86| 198.77|
| Mistral 7B| 1| 128, 128| 30177.4| 17025.15| 6968.4| 5444.55| 9526.7| 33795.78
| | | 128, 2048| 22060.45| 10324.05| 5556.98| 4960.48| 5669.19| 22724.8
| | | 128, 4096| 13773.03| 6205.41| 3430.11| 3077.47| 3091.88| 13916.10
| | | 500, 2000| 17229.29| 8294.02| 4339.77| 3883.38| 4498.74| 20702.51
| | | 1000, 1000| 15428.87| 7894.2| 3874.65| 3433.27| 4118.6| 17061.12
| | | 2048, 128| 3546.44| 2001.13| 793.57| 635.46| 1067.47| 4039.02
| | | 2048, 2048| 9118.64| 4520.74| 2440.45| 2187.82| 2231.66| 9998.65
| | | 5000, 500| 3493.52| 1838.75| 828.17| 702.36| 999.35| 4042.82
| | | 20000, 2000| 1267.96| 641| 334.06| 296.1| 336.18| 1521.67
| Mixtral 8x7B| 1| 128, 128| 15882.61| | | | | 16515.3
| | | 128, 2048| 8214.24| | | | | 10956.79
| | | 128, 4096| 4671.49| | | | | 6489.02
| | | 500, 2000| 6739.79| | | | | 8809.27
| | | 1000, 1000| 6787.62| | | | | 8402.89
| | | 2048, 128| 1885.43| | | | | 1932.28
| | | 2048, 2048| 3725.12| | | | | 5248.95
| | | 5000, 500| 1762.25| | | | | 2098.53
| | | 20000, 2000| 670.61| | | | | 870.76
| | 2| 128, 128| 27155.63| 15904.17| 5758.21| 3788.61| |
| | | 128, 2048| 23009.9| 7660.05| 4365.92| 2219.51| |
| | | 128, 4096| 14095.62| 4287.96| 2502.13| 1272.21| |
| | | 500, 2000| 16785.63| 6454.11| 3618.34| 1633.61| |
| | | 1000, 1000| 15867.12| 6492.47| 3316.43| 1734.39| |
| | | 2048, 128| 3367.65| 1895.85| 691.68| 465.45| |
| | | 2048, 2048| 10464.57| 3642.6| 1990.95| 1038.11| |
| | | 5000, 500| 3591.62| 1722.61| 755.64| 468.26| |
| | | 20000, 2000| 1739.08| 655.5| 334.67| 187.43| |
| | 4| 128, 128| 40731.73| 28272.32| 11612.27| 6075.21| 6756.75|
| | | 128, 2048| 41117.27| 23327.39| 11755.57| 7851.32| 7989.81|
| | | 128, 4096| 28143.35| 13906.89| 8052.85| 5920.37| 5655.07|
| | | 500, 2000| 34507.24| 16964.37| 9185.2| 6243.72| 6605.53|
| | | 1000, 1000| 27614.12| 16217.64| 7640.13| 4818.03| 5132.48|
| | | 2048, 128| 5275.25| 3416.82| 1383.85| 740| 811.01|
| | | 2048, 2048| 18441.12| 10381.54| 5403.69| 3842.39| 3837.68|
| | | 5000, 500| 6340.27| 3689.37| 1632.92| 966.38| 1072.16|
| | | 20000, 2000| 3231.36| 1717.02| 856.62| 619.01| 655.74|
| | 8| 128, 128| 51899.21| 40517.74| 18434.51| 5573.24| 6349.85|
| | | 128, 2048| 63701.21| 40322.45| 22120.7| 8657.63| 9696.71|
| | | 128, 4096| 47833.64| 27121.19| 16280.11| 7747.32| 8038.78|
| | | 500, 2000| 53260.36| 32190.46| 18439.46| 7393.45| 8319.84|
| | | 1000, 1000| 40321.28| 27487.98| 13842.01| 5041.55| 5593.52|
| | | 2048, 128| 7609.41| 5396.72| 2295.12| 670.71| 765.2|
| | | 2048, 2048| 25624.61| 17823.29| 10114.34| 4509.4| 4791.64|
| | | 5000, 500| 9527.29| 6475.64| 3009.15| 973.63| 1094.62|
| | | 20000, 2000| 5507.84| 3156.06| 1673.29| 770.41| 872.96|
| Mixtral 8x22B| 8| 128, 128| 22834.12| 16565.76| 6914.09| | 2470.15|
| | | 128, 2048| 24975.75| 11676.16| 7170.04| | 3629.98|
| | | 128, 4096| 17564.49| 7020.49| 5052.47| | 2933.79|
| | | 500, 2000| 21498.7| 10606.93| 6151.81| | 2959.66|
| | | 1000, 1000| 16383.52| 9803.47| 4790.88| | 2146.74|
| | | 2048, 128| 2945.44| 2028.84| 827.34| | 291.53|
| | | 2048, 2048| 11238.84| 5804.75| 3395| | 1830.44|
| | | 5000, 500| 3755.98| 2281.8| 1032.41| | 417.12|
| | | 20000, 2000| 2151.07| 1186.32| 597.81| | 323.37|
"""

TABLES['v0.17'] = """\
| Throughput (tokens / sec)   |                            | GPU                          | H200 141GB HBM3   | H100 80GB HBM3   | GH200 480GB   | L40S    | A100-SXM4-80GB   |
|                             | Precision                  |                              | FP8               | FP8              | FP8           | FP8     | FP16             |
| Model                       | Tensor Model Parallel Size | Runtime Input/Output Lengths |                   |                  |               |         |                  |
| LLaMA v3.1 8B               | 1                          | 128, 128                     | 29526.04          | 28836.77         | 29852.96      | 9104.61 | 6627.27          |
|                             |                            | 128, 2048                    | 25398.86          | 21109.38         | 21769.55      | 5365.81 | 5255.99          |
|                             |                            | 128, 4096                    | 17370.8           | 13593.65         | 14189.89      | 3025.92 | 3453.79          |
|                             |                            | 500, 2000                    | 21020.81          | 16500.69         | 17137.29      | 4273.75 | 4276.58          |
|                             |                            | 1000, 1000                   | 17537.96          | 15244.78         | 16482.77      | 4054.71 | 3786.83          |
|                             |                            | 2048, 128                    | 3794.14           | 3556.73          | 3843.95       | 1066.52 | 799.61           |
|                             |                            | 2048, 2048                   | 11968.5           | 9488.42          | 10265.9       | 2225.27 | 2424.16          |
|                             |                            | 5000, 500                    | 3987.79           | 3559.36          | 3932.58       | 981.2   | 825.13           |
|                             |                            | 20000, 2000                  | 1804.1            | 1401.31          | 1560.2        | 327.97  | 330.04           |
| LLaMA v3.1 70B              | 1                          | 128, 128                     | 4020.75           | 3378.03          | 3636.91       |         |                  |
|                             |                            | 128, 2048                    | 4165.68           | 911.62           | 2082.74       |         |                  |
|                             |                            | 128, 4096                    | 2651.75           | 426.32           | 1263.98       |         |                  |
|                             |                            | 500, 2000                    | 3018.39           | 775.57           | 1973.86       |         |                  |
|                             |                            | 1000, 1000                   | 2823.45           | 839.97           | 1746.12       |         |                  |
|                             |                            | 2048, 128                    | 465.99            | 343.29           | 424.96        |         |                  |
|                             |                            | 2048, 2048                   | 1913.8            |                  | 1086.93       |         |                  |
|                             |                            | 5000, 500                    | 560.16            | 245.34           | 422.36        |         |                  |
|                             |                            | 20000, 2000                  | 279.52            |                  |               |         |                  |
|                             | 2                          | 128, 128                     | 6823.01           | 6645.12          |               |         | 1313.96          |
|                             |                            | 128, 2048                    | 8290.35           | 6169.58          |               |         | 531.26           |
|                             |                            | 128, 4096                    | 6526.67           | 3897.06          |               |         |                  |
|                             |                            | 500, 2000                    | 6848.02           | 4972.57          |               |         | 439.41           |
|                             |                            | 1000, 1000                   | 5164.76           | 4390.53          |               |         | 472.94           |
|                             |                            | 2048, 128                    | 809               | 772.66           |               |         | 148.96           |
|                             |                            | 2048, 2048                   | 4183.88           | 2898.16          |               |         | 261.1            |
|                             |                            | 5000, 500                    | 1025.38           | 919.73           |               |         | 121.47           |
|                             |                            | 20000, 2000                  | 640.62            | 443.01           |               |         |                  |
|                             | 4                          | 128, 128                     | 11098.63          | 11127.53         |               | 1523.52 | 2733.48          |
|                             |                            | 128, 2048                    | 14156             | 11511.93         |               | 1942.66 | 2811.27          |
|                             |                            | 128, 4096                    | 10574.06          | 7439.41          |               | 1440.23 | 1976.49          |
|                             |                            | 500, 2000                    | 12452.79          | 9836.7           |               | 1634.72 | 2275.79          |
|                             |                            | 1000, 1000                   | 8911.29           | 7430.99          |               | 1209.25 | 1921.77          |
|                             |                            | 2048, 128                    | 1358.06           | 1302.6           |               | 177.72  | 325.15           |
|                             |                            | 2048, 2048                   | 7130.44           | 5480.03          |               | 969.68  | 1393.64          |
|                             |                            | 5000, 500                    | 1811.55           | 1602.78          |               | 249.52  | 392.62           |
|                             |                            | 20000, 2000                  | 1199.68           | 920.19           |               | 162.25  | 212.08           |
|                             | 8                          | 128, 128                     | 15355.84          | 14730.69         |               | 1464.03 | 4717.62          |
|                             |                            | 128, 2048                    | 21195.88          | 17061.82         |               | 2303.31 | 5241.5           |
|                             |                            | 128, 4096                    | 16941.52          | 14171.43         |               | 2018.22 | 3724.67          |
|                             |                            | 500, 2000                    | 17278.4           | 14679.33         |               | 1971.96 | 4445.37          |
|                             |                            | 1000, 1000                   | 13181.24          | 11451.16         |               | 1333.62 | 3320.41          |
|                             |                            | 2048, 128                    | 1983.03           | 1923.41          |               | 176.16  | 542.38           |
|                             |                            | 2048, 2048                   | 11142.47          | 8801.95          |               | 1200.16 | 2553.71          |
|                             |                            | 5000, 500                    | 2717.83           | 2457.42          |               | 259.71  | 696.34           |
|                             |                            | 20000, 2000                  | 1920.45           | 1512.6           |               | 209.87  | 413.38           |
| LLaMA v3.1 405B             | 8                          | 128, 128                     | 3874.19           |                  |               |         |                  |
|                             |                            | 128, 2048                    | 5938.09           |                  |               |         |                  |
|                             |                            | 128, 4096                    | 5168.37           |                  |               |         |                  |
|                             |                            | 500, 2000                    | 5084.29           |                  |               |         |                  |
|                             |                            | 1000, 1000                   | 3399.69           |                  |               |         |                  |
|                             |                            | 2048, 128                    | 463.42            |                  |               |         |                  |
|                             |                            | 2048, 2048                   | 2940.62           |                  |               |         |                  |
|                             |                            | 5000, 500                    | 669.13            |                  |               |         |                  |
|                             |                            | 20000, 2000                  | 535.31            |                  |               |         |                  |
| Mistral 7B                  | 1                          | 128, 128                     | 31938.12          | 31674.49         | 32498.47      | 9664.13 | 6982.53          |
|                             |                            | 128, 2048                    | 27409.3           | 23496.42         | 23337.29      | 5720.65 | 5630.62          |
|                             |                            | 128, 4096                    | 18505.03          | 14350.99         | 15017.88      | 3136.33 | 3591.22          |
|                             |                            | 500, 2000                    | 22354.67          | 18026.27         | 18556         | 4521.77 | 4400.48          |
|                             |                            | 1000, 1000                   | 18426.16          | 16035.66         | 17252.11      | 4177.76 | 3896.58          |
|                             |                            | 2048, 128                    | 3834.43           | 3642.48          | 3813.13       | 1076.74 | 808.58           |
|                             |                            | 2048, 2048                   | 12347.37          | 9958.17          | 10755.94      | 2286.71 | 2489.77          |
|                             |                            | 5000, 500                    | 4041.59           | 3591.33          | 3949.66       | 1001.02 | 844.64           |
|                             |                            | 20000, 2000                  | 1822.69           | 1373.24          | 1601.28       | 337.83  | 332.3            |
| Mixtral 8x7B                | 1                          | 128, 128                     | 17157.72          | 15962.49         | 16859.18      |         |                  |
|                             |                            | 128, 2048                    | 15095.21          | 8290.13          | 11120.16      |         |                  |
|                             |                            | 128, 4096                    | 9534.62           | 4784.86          | 6610.47       |         |                  |
|                             |                            | 500, 2000                    | 12105.27          | 6800.6           | 9192.86       |         |                  |
|                             |                            | 1000, 1000                   | 10371.36          | 6868.52          | 8849.18       |         |                  |
|                             |                            | 2048, 128                    | 2009.67           | 1892.81          | 1994.31       |         |                  |
|                             |                            | 2048, 2048                   | 6940.32           | 3983.1           | 5545.46       |         |                  |
|                             |                            | 5000, 500                    | 2309.1            | 1764.7           | 2078.27       |         |                  |
|                             |                            | 20000, 2000                  | 1151.78           | 673.7            | 860.68        |         |                  |
|                             | 2                          | 128, 128                     | 27825.34          | 27451.13         |               |         | 5541.47          |
|                             |                            | 128, 2048                    | 29584.05          | 22830.08         |               |         | 4169.78          |
|                             |                            | 128, 4096                    | 21564.68          | 14237.01         |               |         | 2608.05          |
|                             |                            | 500, 2000                    | 23410.63          | 17036.04         |               |         | 3446.37          |
|                             |                            | 1000, 1000                   | 19151.19          | 15770.89         |               |         | 3154.52          |
|                             |                            | 2048, 128                    | 3383.16           | 3333.68          |               |         | 649              |
|                             |                            | 2048, 2048                   | 14007.29          | 10685.85         |               |         | 2056.58          |
|                             |                            | 5000, 500                    | 4223.68           | 3646.09          |               |         | 724.44           |
|                             |                            | 20000, 2000                  | 2299.21           | 1757.45          |               |         | 337.51           |
|                             | 4                          | 128, 128                     | 42551.59          | 41068.23         |               | 6921.87 | 10324.28         |
|                             |                            | 128, 2048                    | 52291.78          | 41164.73         |               | 7996.93 | 10911.86         |
|                             |                            | 128, 4096                    | 39513.73          | 27912.48         |               | 5736.09 | 7666.51          |
|                             |                            | 500, 2000                    | 43818.99          | 34489.34         |               | 6914.68 | 8456.21          |
|                             |                            | 1000, 1000                   | 33580.9           | 27784.74         |               | 5251.49 | 7122.84          |
|                             |                            | 2048, 128                    | 5467.62           | 5234.98          |               | 827.62  | 1237.62          |
|                             |                            | 2048, 2048                   | 24980.93          | 19432.08         |               | 3935.32 | 5222.98          |
|                             |                            | 5000, 500                    | 7084.94           | 6401.56          |               | 1092.88 | 1500.55          |
|                             |                            | 20000, 2000                  | 4236.84           | 3303.83          |               | 682.48  | 829.59           |
|                             | 8                          | 128, 128                     | 53212.55          | 50849.55         |               | 6740.84 | 17043.54         |
|                             |                            | 128, 2048                    | 68608.45          | 61607.7          |               | 10393.3 | 20277.88         |
|                             |                            | 128, 4096                    | 54827.78          | 48280.37         |               | 8472.35 | 15282.89         |
|                             |                            | 500, 2000                    | 58706.39          | 52583.65         |               | 8660.71 | 17184.24         |
|                             |                            | 1000, 1000                   | 44705.48          | 40631.71         |               | 5947.72 | 12851.44         |
|                             |                            | 2048, 128                    | 7554.38           | 6988.18          |               | 811.96  | 2165.52          |
|                             |                            | 2048, 2048                   | 36193.64          | 30983.35         |               | 5136.98 | 9809.76          |
|                             |                            | 5000, 500                    | 10271.8           | 9210.11          |               | 1153.76 | 2761.28          |
|                             |                            | 20000, 2000                  | 6835.53           | 5602.43          |               | 918.95  | 1592.53          |
| Mixtral 8x22B               | 8                          | 128, 128                     | 22948.57          | 21876.08         |               |         | 6381.95          |
|                             |                            | 128, 2048                    | 32415.81          | 25150.03         |               |         | 6685.99          |
|                             |                            | 128, 4096                    | 25753.14          | 18387.4          |               |         | 4789.13          |
|                             |                            | 500, 2000                    | 27429.6           | 21421.86         |               |         | 5648.46          |
|                             |                            | 1000, 1000                   | 19712.35          | 16573.24         |               |         | 4549.46          |
|                             |                            | 2048, 128                    | 2899.84           | 2794.97          |               |         | 761.56           |
|                             |                            | 2048, 2048                   | 15798.59          | 12244.93         |               |         | 3521.98          |
|                             |                            | 5000, 500                    | 4031.79           | 3645.27          |               |         | 959.14           |
|                             |                            | 20000, 2000                  | 2815.76           | 2227.63          |               |         | 575.02           |
"""

TABLES['pt-50115608725'] = """\
#### Llama 3.3 70B FP4
|                         | GPU:    | B200      |           |           |           |
|    | TP Size   | 1         | 2         | 4         | 8         |
| ISL, OSL |    |           |           |           |           |
| 128, 128                     |    | 11,859.97 | 17,755.36 | 24,415.80 | 27,306.19 |
| 128, 2048                    |    | 8,992.04  | 14,124.04 | 25,348.30 | 36,868.70 |
| 128, 4096                    |    | 5,080.64  | 9,255.85  | 16,714.98 | 27,576.13 |
| 500, 2000                    |    | 7,086.62  | 11,643.52 | 18,353.38 | 23,769.29 |
| 1000, 1000                   |    | 6,417.87  | 10,376.28 | 16,795.59 | 21,271.51 |
| 1000, 2000                   |    | 5,773.36  | 9,594.89  | 13,888.65 | 21,741.45 |
| 1024, 2048                   |    | 5,747.71  | 9,381.21  | 13,689.68 | 21,770.04 |
| 2048, 128                    |    | 1,343.79  | 1,992.55  | 3,014.17  | 3,992.34  |
| 2048, 2048                   |    |           |           | 5,702.33  | 15,339.80 |
| 5000, 500                    |    | 1,441.81  | 2,400.09  | 3,550.76  | 5,055.64  |
| 20000, 2000                  |    | 610.64    | 1,183.48  | 2,029.52  | 3,396.72  |
#### Llama 3.1 405B FP4
| GPU:                         |    | B200     |           |
| TP Size   |    | 4        | 8         |
| ISL, OSL |    |          |           |
| 128, 128                     |    | 5,925.36 | 8,977.74  |
| 128, 2048                    |    | 8,140.69 | 11,927.37 |
| 128, 4096                    |    | 5,888.69 | 9,470.74  |
| 500, 2000                    |    | 6,328.81 | 10,156.47 |
| 1000, 1000                   |    | 4,909.09 | 7,593.56  |
| 1000, 2000                   |    | 5,191.04 | 7,011.15  |
| 1024, 2048                   |    | 5,111.88 | 7,030.86  |
| 2048, 128                    |    | 701.27   | 1,089.03  |
| 2048, 2048                   |    |          | 5,176.81  |
| 5000, 500                    |    | 813.32   | 1,511.81  |
| 20000, 2000                  |    | 569.28   | 1,059.59  |
#### Llama 3.1 8B FP8
|                         | GPU:    | H200 141GB HBM3   | H100 80GB HBM3   |
|    | TP Size   | 1              | 1             |
| ISL, OSL |    |                   |                  |
| 128, 128                     |    | 28,549.50         | 28,035.10        |
| 128, 2048                    |    | 26,812.33         | 21,050.90        |
| 128, 4096                    |    | 17,576.14         | 12,764.22        |
| 500, 2000                    |    | 21,243.42         | 16,880.05        |
| 1000, 1000                   |    | 17,619.36         | 15,045.78        |
| 1000, 2000                   |    | 16,961.83         | 13,832.71        |
| 1024, 2048                   |    | 16,793.56         | 13,570.46        |
| 2048, 128                    |    | 3,524.08          | 3,382.15         |
| 5000, 500                    |    | 3,845.42          | 3,353.48         |
| 20000, 2000                  |    | 1,716.87          | 1,320.63         |
#### Llama 3.1 70B FP8
|                         | GPU:    | H200 141GB HBM3   |          |           |           | H100 80GB HBM3   |          |           |           |
|   | TP Size    | 1              | 2     | 4      | 8      | 1             | 2     | 4      | 8      |
| ISL, OSL |    |                   |          |           |           |                  |          |           |           |
| 128, 128                     |    | 3,853.83          | 6,489.29 | 10,567.69 | 15,591.42 | 3,253.48         | 6,376.85 | 10,237.10 | 14,656.69 |
| 128, 2048                    |    | 4,350.88          | 8,447.23 | 14,763.31 | 19,956.95 | 758.55           | 5,602.62 | 10,827.41 | 16,591.87 |
| 128, 4096                    |    | 2,730.79          | 6,414.68 | 10,803.74 | 14,467.15 |                  | 3,364.30 | 8,038.83  | 11,249.15 |
| 500, 2000                    |    | 3,488.64          | 7,114.59 | 12,430.60 | 18,069.33 |                  | 4,768.42 | 10,015.22 | 15,130.12 |
| 1000, 1000                   |    | 2,875.06          | 5,121.08 | 8,601.38  | 12,538.65 | 714.92           | 4,223.74 | 7,395.74  | 10,693.59 |
| 1000, 2000                   |    | 2,863.28          | 5,831.12 | 9,765.75  | 14,378.24 | 510.67           | 3,836.14 | 7,634.91  | 11,576.51 |
| 1024, 2048                   |    | 2,823.44          | 5,299.83 | 9,703.30  | 14,308.41 | 507.86           | 3,809.33 | 7,620.84  | 11,538.86 |
| 2048, 128                    |    | 436.39            | 771.09   | 1,276.25  | 1,943.06  |                  | 734.28   | 1,233.71  | 1,831.99  |
| 2048, 2048                   |    |                   |          |           | 9,970.15  |                  |          |           |           |
| 5000, 500                    |    | 547.20            | 1,001.16 | 1,694.54  | 2,656.12  | 200.16           | 878.63   | 1,551.48  | 2,365.88  |
| 20000, 2000                  |    | 270.45            | 631.72   | 1,163.86  | 1,987.52  |                  | 404.21   | 899.92    | 1,547.42  |
#### Llama 3.1 405B FP8
|                         | GPU:    | H200 141GB HBM3   | H100 80GB HBM3   |
|    | TP Size   | 8              | 8             |
| ISL, OSL |    |                   |                  |
| 128, 128                     |    | 3,784.96          | 3,711.06         |
| 128, 2048                    |    | 6,139.81          | 4,571.68         |
| 128, 4096                    |    | 5,235.58          | 3,030.35         |
| 500, 2000                    |    | 4,902.22          | 3,839.54         |
| 1000, 1000                   |    | 3,400.47          | 2,949.12         |
| 1000, 2000                   |    | 4,115.62          | 3,192.05         |
| 1024, 2048                   |    | 4,097.04          | 3,195.78         |
| 2048, 128                    |    | 455.08            | 437.67           |
| 5000, 500                    |    | 659.79            | 577.93           |
| 20000, 2000                  |    | 519.68            | 316.81           |
"""

TABLES['pt-8901493438'] = """\
#### Llama 3.3 70B FP4
|                         | GPU     | B200      |           |           |           |
|                         | TP Size | 1         | 2         | 4         | 8         |
| ISL, OSL                |         |           |           |           |           |
| 128, 128                |         | 10,994.48 | 17,542.11 | 24,667.31 | 27,272.27 |
| 128, 2048               |         | 9,580.46  | 15,432.35 | 23,568.12 | 31,174.31 |
| 128, 4096               |         | 6,418.39  | 9,841.53  | 17,808.76 | 25,229.25 |
| 500, 2000               |         | 7,343.32  | 11,850.57 | 20,709.67 | 28,038.78 |
| 1000, 1000              |         | 6,752.53  | 10,815.88 | 16,413.04 | 20,060.66 |
| 1000, 2000              |         | 6,670.07  | 9,830.73  | 15,597.49 | 20,672.37 |
| 1024, 2048              |         | 6,636.75  | 9,807.13  | 15,519.23 | 20,617.28 |
| 2048, 128               |         | 1,342.17  | 1,989.41  | 3,033.14  | 4,035.64  |
| 5000, 500               |         | 1,429.67  | 2,419.67  | 3,686.84  | 5,182.96  |
| 20000, 2000             |         | 629.77    | 1,177.01  | 2,120.66  | 3,429.03  |
#### Llama 3.1 405B FP4
|                         | GPU     | B200     |           |
|                         | TP Size | 4        | 8         |
| ISL, OSL                |         |          |           |
| 128, 128                |         | 6,163.81 | 9,002.90  |
| 128, 2048               |         | 7,081.21 | 10,288.28 |
| 128, 4096               |         | 6,028.37 | 8,713.77  |
| 500, 2000               |         | 5,858.75 | 9,125.86  |
| 1000, 1000              |         | 4,848.00 | 7,582.97  |
| 1000, 2000              |         | 5,375.25 | 7,626.28  |
| 1024, 2048              |         | 5,345.70 | 7,464.03  |
| 2048, 128               |         | 693.55   | 1,086.56  |
| 5000, 500               |         | 947.49   | 1,532.45  |
| 20000, 2000             |         | 641.11   | 1,097.84  |
#### Llama 3.1 8B FP8
|                         | GPU     | H200 141GB HBM3   | H100 80GB HBM3   |
|    | TP Size   | 1              | 1             |
| ISL, OSL |    |                   |                  |
| 128, 128                     |    | 27,970.14         | 27,688.36        |
| 128, 2048                    |    | 23,326.38         | 21,841.15        |
| 128, 4096                    |    | 17,508.51         | 13,730.89        |
| 500, 2000                    |    | 21,390.41         | 17,833.34        |
| 1000, 1000                   |    | 17,366.89         | 15,270.62        |
| 1000, 2000                   |    | 16,831.31         | 13,798.08        |
| 1024, 2048                   |    | 16,737.03         | 13,385.50        |
| 2048, 128                    |    | 3,488.03          | 3,414.67         |
| 5000, 500                    |    | 3,813.69          | 3,394.54         |
| 20000, 2000                  |    | 1,696.66          | 1,345.42         |
#### Llama 3.3 70B FP8
|                          | GPU    | H200 141GB HBM3   |          |           |           | H100 80GB HBM3   |          |           |           |
|    | TP Size   | 1              | 2     | 4      | 8      | 1            | 2     | 4      | 8      |
| ISL, OSL |    |                   |          |           |           |                  |          |           |           |
| 128, 128                     |    | 3,605.47          | 6,427.69 | 10,407.42 | 15,434.37 | 3,128.33         | 6,216.91 |           |           |
| 128, 2048                    |    | 4,315.80          | 8,464.03 | 13,508.59 | 20,759.72 | 756.42           | 5,782.57 | 11,464.94 | 17,424.32 |
| 128, 4096                    |    | 2,701.17          | 5,573.55 | 11,458.56 | 16,668.75 |                  | 3,868.37 | 8,206.39  | 12,624.61 |
| 500, 2000                    |    | 3,478.76          | 6,740.06 | 12,200.18 |           |                  | 4,684.06 | 9,903.53  | 14,553.93 |
| 1000, 1000                   |    | 2,744.32          | 5,119.72 | 8,685.44  | 12,744.51 | 742.14           | 4,247.19 | 7,435.65  | 11,018.81 |
| 1000, 2000                   |    | 2,896.44          | 5,847.26 | 9,031.21  | 13,141.17 | 533.74           | 3,866.53 | 7,611.12  | 11,139.22 |
| 1024, 2048                   |    | 2,874.18          | 5,568.61 | 8,946.71  | 13,082.62 | 530.16           | 3,796.68 | 7,575.24  | 11,004.31 |
| 2048, 128                    |    | 435.90            | 772.67   | 1,264.76  |           |                  | 736.89   | 1,213.33  | 1,839.22  |
| 2048, 2048                   |    |                   |          |           | 10,412.85 |                  |          |           |           |
| 5000, 500                    |    | 545.96            | 997.15   | 1,698.22  | 2,655.28  | 204.94           | 862.91   | 1,552.68  | 2,369.84  |
| 20000, 2000                  |    | 276.66            | 620.33   | 1,161.29  | 1,985.85  |                  | 416.13   | 903.66    | 1,554.10  |
#### Llama 3.1 405B FP8
|                          | GPU    | H200 141GB HBM3   | H100 80GB HBM3   |
|   | TP Size   | 8              | 8             |
| ISL, OSL |    |                   |                  |
| 128, 2048                    |    | 5,567.87          |                  |
| 128, 4096                    |    | 5,136.85          |                  |
| 500, 2000                    |    | 4,787.61          | 3,673.91         |
| 1000, 1000                   |    | 3,286.30          | 3,012.22         |
| 1000, 2000                   |    | 3,636.76          | 3,262.20         |
| 1024, 2048                   |    | 3,618.66          | 3,109.70         |
| 2048, 128                    |    | 443.10            | 449.02           |
| 5000, 500                    |    | 645.46            |                  |
| 20000, 2000                  |    |                   | 372.12           |
#### Llama 4 Maverick FP8
|                          | GPU    | H200 141GB HBM3   | H100 80GB HBM3   |
|    | TP Size    | 8              | 8             |
| ISL, OSL |    |                   |                  |
| 128, 2048                    |    | 27,543.87         |                  |
| 128, 4096                    |    | 18,541.01         | 11,163.12        |
| 500, 2000                    |    | 21,117.34         |                  |
| 1000, 2000                   |    |                   | 10,556.00        |
| 1024, 2048                   |    | 16,859.45         | 11,584.33        |
| 2048, 128                    |    | 4,364.06          | 3,832.38         |
| 2048, 2048                   |    | 12,800.89         |                  |
| 5000, 500                    |    | 5,128.60          |                  |
| 20000, 2000                  |    | 1,764.27          | 1,400.79         |
"""

TABLES['pt-2997649200'] = """\
#### Llama 3.3 70B FP4
|                         | GPU     | B200      |           |           |           |
|         | TP Size    | 1         | 2         | 4         | 8         |
| ISL, OSL|    |           |           |           |           |
| 128, 128                     |    | 11,253.28 | 17,867.66 | 24,944.50 | 27,471.49 |
| 128, 2048                    |    | 9,925.00  | 15,459.71 | 23,608.58 | 30,742.86 |
| 128, 4096                    |    | 6,318.92  | 8,711.88  | 17,659.74 | 24,947.05 |
| 500, 2000                    |    | 7,559.88  | 10,602.27 | 20,910.23 | 28,182.34 |
| 1000, 1000                   |    | 6,866.96  | 10,838.01 | 16,567.86 | 19,991.64 |
| 1000, 2000                   |    | 6,736.88  | 9,132.08  | 15,737.02 | 20,518.04 |
| 1024, 2048                   |    | 6,580.56  | 8,767.45  | 15,722.55 | 20,437.96 |
| 2048, 128                    |    | 1,375.49  | 1,610.69  | 2,707.58  | 3,717.82  |
| 2048, 2048                   |    | 4,544.73  | 6,956.14  | 12,292.23 | 15,661.22 |
| 5000, 500                    |    | 1,488.19  | 2,379.73  | 3,588.45  | 4,810.21  |
| 20000, 2000                  |    | 580.96    | 1,043.58  | 1,957.84  | 3,167.30  |
#### Llama 3.1 405B FP4
|                          | GPU    | B200      |
|          | TP Size   | 8         |
| ISL, OSL|    |           |
| 128, 128                     |    | 9,184.83  |
| 128, 2048                    |    | 10,387.23 |
| 128, 4096                    |    | 8,741.80  |
| 500, 2000                    |    | 9,242.34  |
| 1000, 1000                   |    | 7,565.50  |
| 1000, 2000                   |    | 7,696.76  |
| 1024, 2048                   |    | 7,568.93  |
| 2048, 128                    |    | 953.57    |
| 2048, 2048                   |    | 6,092.32  |
| 5000, 500                    |    | 1,332.22  |
| 20000, 2000                  |    | 961.58    |
#### Llama 3.1 8B FP8
|                          | GPU    | H200 141GB HBM3   | H100 80GB HBM3   |
|          | TP Size   | 1                 | 1                |
| ISL, OSL |    |                   |                  |
| 128, 128                     |    | 28,447.38         | 27,568.68        |
| 128, 2048                    |    | 23,294.74         | 22,003.62        |
| 128, 4096                    |    | 17,481.48         | 13,640.35        |
| 500, 2000                    |    | 21,462.57         | 17,794.39        |
| 1000, 1000                   |    | 17,590.60         | 15,270.02        |
| 1000, 2000                   |    | 17,139.51         | 13,850.22        |
| 1024, 2048                   |    | 16,970.63         | 13,374.15        |
| 2048, 128                    |    | 3,531.33          | 3,495.05         |
| 2048, 2048                   |    | 12,022.38         | 9,653.67         |
| 5000, 500                    |    | 3,851.65          | 3,371.16         |
| 20000, 2000                  |    | 1,706.06          | 1,340.92         |
#### Llama 3.1 70B FP8
|                          | GPU   | H200 141GB HBM3   |          |           |           | H100 80GB HBM3   |          |           |           |
|    | TP Size   | 1                 | 2        | 4         | 8         | 1                | 2        | 4         | 8         |
| ISL, OSL|    |                   |          |           |           |                  |          |           |           |
| 128, 128                     |    | 3,657.58          | 6,477.50 | 10,466.04 | 15,554.57 | 3,191.27         | 6,183.41 | 10,260.68 | 14,686.01 |
| 128, 2048                    |    | 4,351.07          | 8,450.31 | 13,438.71 | 20,750.58 | 745.19           | 5,822.02 | 11,442.01 | 17,463.99 |
| 128, 4096                    |    | 2,696.61          | 5,598.92 | 11,524.93 | 16,634.90 |                  | 3,714.87 | 8,209.91  | 12,598.55 |
| 500, 2000                    |    | 3,475.58          | 6,712.35 | 12,332.32 | 17,311.28 |                  | 4,704.31 | 10,278.02 | 14,630.41 |
| 1000, 1000                   |    | 2,727.42          | 5,097.36 | 8,698.15  | 12,794.92 | 734.67           | 4,191.26 | 7,427.35  | 11,082.48 |
| 1000, 2000                   |    | 2,913.54          | 5,841.15 | 9,016.49  | 13,174.68 | 526.31           | 3,920.44 | 7,590.35  | 11,108.11 |
| 1024, 2048                   |    | 2,893.02          | 5,565.28 | 9,017.72  | 13,117.34 | 525.43           | 3,896.14 | 7,557.32  | 11,028.32 |
| 2048, 128                    |    | 433.30            | 772.97   | 1,278.26  | 1,947.33  | 315.90           | 747.51   | 1,240.12  | 1,840.12  |
| 2048, 2048                   |    | 1,990.25          | 3,822.83 | 7,068.68  | 10,529.06 | 357.98           | 2,732.86 | 5,640.31  | 8,772.88  |
| 5000, 500                    |    | 543.88            | 1,005.81 | 1,714.77  | 2,683.22  | 203.27           | 866.77   | 1,571.92  | 2,399.78  |
| 20000, 2000                  |    | 276.99            | 618.01   | 1,175.35  | 2,021.08  |                  | 408.43   | 910.77    | 1,568.84  |
#### Llama 3.1 405B FP8
|                          | GPU   | H200 141GB HBM3   | H100 80GB HBM3   |
|          | TP Size   | 8                 | 8                |
| ISL, OSL |    |                   |                  |
| 128, 128                     |    | 3,800.11          | 3,732.40         |
| 128, 2048                    |    | 5,661.13          | 4,572.23         |
| 128, 4096                    |    | 5,167.18          | 2,911.42         |
| 500, 2000                    |    | 4,854.29          | 3,661.85         |
| 1000, 1000                   |    | 3,332.15          | 2,963.36         |
| 1000, 2000                   |    | 3,682.15          | 3,253.17         |
| 1024, 2048                   |    | 3,685.56          | 3,089.16         |
| 2048, 128                    |    | 453.42            | 448.89           |
| 2048, 2048                   |    | 3,055.73          | 2,139.94         |
| 5000, 500                    |    | 656.11            | 579.14           |
| 20000, 2000                  |    | 514.02            | 370.26           |
"""

TABLES['pt-2488042217'] = """\
#### Llama 3.3 70B FP4
|                          | GPU:   | B200     | GB200  |
|    | TP Size   | 1      | 1          |
| ISL, OSL |    |           |               |
| 128, 128                     |    | 10,613.84 | 11,100.97     |
| 128, 2048                    |    | 9,445.51  | 10,276.05     |
| 128, 4096                    |    | 6,276.85  | 7,351.12      |
| 500, 2000                    |    | 6,983.27  | 8,194.30      |
| 1000, 1000                   |    | 6,434.29  | 7,401.80      |
| 1000, 2000                   |    | 6,725.03  | 6,478.72      |
| 1024, 2048                   |    | 6,546.61  | 7,922.88      |
| 2048, 128                    |    | 1,330.35  | 1,418.47      |
| 2048, 2048                   |    | 4,528.48  | 5,326.77      |
| 5000, 500                    |    | 1,427.44  | 1,502.44      |
| 20000, 2000                  |    | 636.36    | 732.43        |
#### Llama 3.1 405B FP4
|                         | GPU:    | B200    | GB200  |
|   | TP Size   | 4     | 4          |
| ISL, OSL |    |          |               |
| 128, 128                     |    | 6,218.89 | 6,598.97      |
| 128, 2048                    |    | 7,178.10 | 7,497.40      |
| 128, 4096                    |    | 5,890.89 | 5,898.19      |
| 500, 2000                    |    | 5,844.37 | 6,198.33      |
| 1000, 1000                   |    | 4,958.53 | 5,243.35      |
| 1000, 2000                   |    | 4,874.16 | 4,905.51      |
| 1024, 2048                   |    | 4,833.19 | 4,686.38      |
| 2048, 128                    |    | 737.95   | 761.58        |
| 2048, 2048                   |    | 4,024.02 | 4,326.56      |
| 5000, 500                    |    | 1,032.40 | 1,078.87      |
| 20000, 2000                  |    | 667.39   | 649.95        |
#### Llama 3.1 8B FP8
|                          | GPU:   | GH200  | H100   | H200   |
|    | TP Size   | 1          | 1             | 1              |
| ISL, OSL |    |               |                  |                   |
| 128, 128                     |    | 27,304.25     | 26,401.48        | 27,027.80         |
| 128, 2048                    |    | 24,045.60     | 21,413.21        | 23,102.25         |
| 128, 4096                    |    | 15,409.85     | 13,541.54        | 17,396.83         |
| 500, 2000                    |    | 20,123.88     | 17,571.01        | 19,759.16         |
| 1000, 1000                   |    | 16,352.99     | 14,991.62        | 17,162.49         |
| 1000, 2000                   |    | 15,705.82     | 13,505.23        | 16,227.11         |
| 1024, 2048                   |    | 16,102.52     | 13,165.91        | 16,057.66         |
| 2048, 128                    |    | 3,573.85      | 3,275.55         | 3,390.69          |
| 2048, 2048                   |    | 10,767.05     | 9,462.43         | 11,822.14         |
| 5000, 500                    |    | 3,584.74      | 3,276.47         | 3,758.08          |
| 20000, 2000                  |    | 1,393.31      | 1,340.69         | 1,705.68          |
#### Llama 3.3 70B FP8
|                        | GPU:     | H100   | H200   |
|    | TP Size   | 2             | 2              |
| ISL, OSL |    |                  |                   |
| 128, 128                     |    | 6,092.28         | 6,327.98          |
| 128, 2048                    |    | 5,892.94         | 7,467.36          |
| 128, 4096                    |    | 3,828.46         | 5,526.42          |
| 500, 2000                    |    | 4,654.74         | 6,639.15          |
| 1000, 1000                   |    | 4,181.06         | 4,773.33          |
| 1000, 2000                   |    | 3,708.93         | 5,790.36          |
| 1024, 2048                   |    | 3,785.04         | 5,480.44          |
| 2048, 128                    |    | 723.40           | 747.55            |
| 2048, 2048                   |    | 2,785.53         | 3,775.80          |
| 5000, 500                    |    | 865.55           | 978.28            |
| 20000, 2000                  |    | 411.85           | 609.42            |
#### Llama 3.1 405B FP8
|                         | GPU:    | H100   | H200   |
|    | TP Size   | 8             | 8              |
| Runtime Input/Output Lengths |    |                  |                   |
| 128, 128                     |    |                  | 3,705.18          |
| 128, 2048                    |    | 4,517.39         | 4,715.13          |
| 128, 4096                    |    | 2,910.31         | 4,475.91          |
| 500, 2000                    |    | 3,664.62         | 4,804.10          |
| 1000, 1000                   |    | 2,955.50         | 3,208.25          |
| 1000, 2000                   |    | 2,884.69         | 3,630.29          |
| 1024, 2048                   |    | 3,237.41         | 3,609.50          |
| 2048, 128                    |    | 433.47           | 441.35            |
| 2048, 2048                   |    | 2,216.55         | 2,840.86          |
| 5000, 500                    |    | 579.05           | 645.26            |
| 20000, 2000                  |    | 363.27           | 509.87            |
"""

TABLES['pt-1183216079'] = """\
#### Llama 4 Scout
| Sequence Length (ISL/OSL) | B200<br/>TP1 (FP4) | GB200<br/>TP1 (FP4) | H200<br/>TP4 (FP8) | H100<br/>TP4 (FP8) |
| 128/2048                 | 14,699              | 15,238             | 34,316           | 15,130           |
| 128/4096                 | 8,932               | 9,556              | 21,332           | 8,603            |
| 500/2000                 | 11,977              | 11,795             | 24,630           | 12,399           |
| 1000/1000                | 10,591              | 7,738              | 21,636           | 12,129           |
| 1000/2000                | 9,356               | 8,581              | 18,499           | 9,838            |
| 2048/128                 | 3,137               | 3,295              | 3,699            | 3,253            |
| 2048/2048                | 7,152               | 7,464              | 14,949           | 7,972            |
| 5000/500                 | 2,937               | 3,107              | 4,605            | 3,342            |
| 20000/2000               | 1,644               | 1,767              | 2,105            |                  |
#### Llama 4 Scout - RTX 6000 Pro Blackwell Server Edition
| Sequence Length (ISL/OSL) | **4 GPUs**<br/>TP2,PP2 (FP4) | **8 GPUs**<br/>TP4,PP2 (FP4) |
| 128/2048 | 12,321 | 21,035 |
| 128/4096 | 7,643 | 13,421 |
| 1000/1000 | 9,476 | 15,781 |
| 1000/2000 | 8,919 | 16,434 |
| 2048/128 | 2,615 | 2,941 |
| 2048/2048 | 6,208 | 10,410 |
| 5000/500 | 2,662 | |
#### Llama 3.3 70B
| Sequence Length (ISL/OSL) | B200<br/>TP1 (FP4) | GB200<br/>TP1 (FP4) | H200<br/>TP1 (FP8) | H100<br/>TP2 (FP8) |
| 128/2048 | 9,922 | 11,309 | 4,336 | 6,651 |
| 128/4096 | 6,831 | 7,849 | 2,872 | 4,199 |
| 500/2000 | 7,762 | 9,028 | 3,666 | 5,222 |
| 1000/1000 | 7,007 | 7,326 | 2,909 | 4,205 |
| 1000/2000 | 6,271 | 6,513 | 2,994 | 4,146 |
| 2048/128 | 1,339 | 1,450 | 442 | 762 |
| 2048/2048 | 4,783 | 5,646 | 2,003 | 3,082 |
| 5000/500 | 1,459 | 1,602 | 566 | 898 |
| 20000/2000 | 665 | 755 | 283 | 437 |
#### Llama 3.3 70B - RTX 6000 Pro Blackwell Server Edition
| Sequence Length (ISL/OSL) | **1 GPUs**<br/>TP1,PP1 (FP4) | **2 GPUs**<br/>TP1,PP2 (FP4) | **4 GPUs**<br/>TP1,PP4 (FP4) | **8 GPUs**<br/>TP1,PP8 (FP4) |
| 128/2048 | 2,422 | 4,993 | 7,922 | 9,833 |
| 128/4096 | 1,349 | 2,893 | 4,978 | 7,352 |
| 500/2000 | 1,856 | 4,114 | 6,939 | 9,435 |
| 1000/1000 | 1,787 | 3,707 | 5,961 | 8,166 |
| 1000/2000 | 1,594 | 2,993 | 5,274 | 6,943 |
| 2048/128 | 393 | 813 | 1,511 | 2,495 |
| 2048/2048 | 1,074 | 2,336 | 3,870 | 6,078 |
| 5000/500 | 401 | 812 | 1,511 | 2,491 |
| 20000/2000 | 142 | 319 | 630 | 1,148 |
#### Qwen3-235B-A22B
| Sequence Length (ISL/OSL) | B200<br/>TP8 (FP4) | H200<br/>TP8 (FP8) | H100<br/>TP8 (FP8) |
| 128/2048 | 66,057 | 42,821 | 19,658 |
| 128/4096 | 39,496 | 26,852 | 12,447 |
| 500/2000 | 57,117 | 28,026 | 18,351 |
| 1000/1000 | 42,391 | 23,789 | 14,898 |
| 1000/2000 | 34,105 | 22,061 | 15,136 |
| 2048/128 | 7,329 | 3,331 | |
| 2048/2048 | 26,854 | 16,672 | 9,924 |
| 5000/500 | 8,190 | 3,623 | 3,225 |
| 20000/2000 | 4,453 | 1,876 | |
#### Qwen3-235B-A22B - RTX 6000 Pro Blackwell Server Edition
| Sequence Length (ISL/OSL) | **8 GPUs**<br/>TP2,PP4 (FP4) |
| 128/2048 | 12,494 |
| 128/4096 | 7,715 |
| 500/2000 | 11,157 |
| 1000/1000 | 10,697 |
| 1000/2000 | 10,109 |
| 2048/128 | 3,181 |
| 2048/2048 | 6,712 |
| 5000/500 | 3,173 |
#### Qwen3-30B-A3B
| Sequence Length (ISL/OSL) | B200<br/>TP1 (FP4) |
| 128/2048 | 37,844 |
| 128/4096 | 24,953 |
| 500/2000 | 27,817 |
| 1000/1000 | 25,828 |
| 1000/2000 | 22,051 |
| 2048/128 | 6,251 |
| 2048/2048 | 17,554 |
| 5000/500 | 6,142 |
| 20000/2000 | 2,944 |
#### Qwen3-30B-A3B - RTX 6000 Pro Blackwell Server Edition
| Sequence Length (ISL/OSL) | **1 GPUs**<br/>TP1,PP1 (FP4) | **2 GPUs**<br/>TP2,PP1 (FP4) | **4 GPUs**<br/>TP4,PP1 (FP4) | **8 GPUs**<br/>TP8,PP1 (FP4) |
| 128/2048 | 12,540 | 22,744 | 35,715 | 52,676 |
| 128/4096 | 7,491 | 15,049 | 28,139 | 33,895 |
| 500/2000 | 10,695 | 17,266 | 26,175 | 44,088 |
| 1000/1000 | 9,910 | 16,431 | 24,046 | 31,785 |
| 1000/2000 | 8,378 | 13,323 | 25,131 | 28,881 |
| 2048/128 | 3,257 | 3,785 | 4,311 | 4,798 |
| 2048/2048 | 5,908 | 10,679 | 18,134 | 22,391 |
| 5000/500 | 2,530 | 3,799 | 5,212 | 5,965 |
| 20000/2000 | 871 | 1,558 | 2,551 | |
#### DeepSeek R1
| Sequence Length (ISL/OSL) | B200<br/>TP8 (FP4) |
| 128/2048 | 62,599 |
| 128/4096 | 44,046 |
| 1000/1000 | 37,634 |
| 1000/2000 | 40,538 |
| 2048/128 | 5,026 |
| 2048/2048 | 28,852 |
#### Llama 4 Maverick
| Sequence Length (ISL/OSL) | B200<br/>TP8 (FP4) | H200<br/>TP8 (FP8) | H100<br/>TP8 (FP8) |
| 128/2048 | 112,676 | 40,572 | 10,829 |
| 128/4096 | 68,170 | 24,616 | 6,744 |
| 500/2000 | | 37,835 | 10,108 |
| 1000/1000 | 79,617 | 31,782 | 9,677 |
| 1000/2000 | 63,766 | 34,734 | 9,151 |
| 2048/128 | 18,088 | 7,307 | |
| 2048/2048 | 52,195 | 20,957 | 6,916 |
| 5000/500 | | 8,456 | 3,457 |
| 20000/2000 | 12,678 | 4,106 | |
#### Llama 4 Maverick - RTX 6000 Pro Blackwell Server Edition
| Sequence Length (ISL/OSL) | **8 GPUs**<br/>TP4,PP2 (FP4) |
| 128/2048 | 19,146 |
| 128/4096 | 12,165 |
| 500/2000 | 17,870 |
| 1000/1000 | 15,954 |
| 1000/2000 | 12,456 |
| 2048/128 | 4,463 |
| 2048/2048 | 10,727 |
| 5000/500 | 4,613 |
#### Llama 3.1 405B
| Sequence Length (ISL/OSL) | B200<br/>TP4 (FP4) | GB200<br/>TP4 (FP4) | H200<br/>TP8 (FP8) | H100<br/>TP8 (FP8) |
| 128/2048 | 8,020 | 8,151 | 5,348 | 4,340 |
| 128/4096 | 6,345 | 6,608 | 4,741 | 3,116 |
| 500/2000 | 6,244 | 6,540 | 4,724 | 3,994 |
| 1000/1000 | 5,209 | 5,389 | 3,330 | 2,919 |
| 1000/2000 | 4,933 | 5,135 | 3,722 | 2,895 |
| 2048/128 | 749 | 797 | 456 | 453 |
| 2048/2048 | 4,212 | 4,407 | 2,948 | 2,296 |
| 5000/500 | 1,048 | 1,112 | 650 | 610 |
| 20000/2000 | 672 | 739 | 505 | 345 |
#### Llama 3.1 405B - RTX 6000 Pro Blackwell Server Edition
| Sequence Length (ISL/OSL) | **8 GPUs**<br/>TP1,PP8 (FP4) |
| 128/2048 | 2,981 |
| 1000/1000 | 2,369 |
| 1000/2000 | 1,931 |
| 2048/128 | 579 |
| 2048/2048 | 1,442 |
#### Llama 3.1 8B
| Sequence Length (ISL/OSL) | H200<br/>TP1 (FP8) | H100<br/>TP1 (FP8) |
| 128/2048 | 26,221 | 22,714 |
| 128/4096 | 18,027 | 14,325 |
| 500/2000 | 20,770 | 17,660 |
| 1000/1000 | 17,744 | 15,220 |
| 1000/2000 | 16,828 | 13,899 |
| 2048/128 | 3,538 | 3,450 |
| 2048/2048 | 12,194 | 9,305 |
| 5000/500 | 3,902 | 3,459 |
| 20000/2000 | 1,804 | 1,351 |
"""

TABLES['pt-00f37686'] = """\
#### Llama 4 Scout
| Sequence Length (ISL/OSL) | B200<br/>TP1 (FP4) | GB200<br/>TP1 (FP4) | H200<br/>TP4 (FP8) | H100<br/>TP4 (FP8) |
| 128/128 | 25,342 | 19,954 | 30,354 | |
| 128/2048 | 14,699 | 15,238 | 34,316 | 15,130 |
| 128/4096 | 8,932 | 9,556 | 21,332 | 8,603 |
| 500/2000 | 11,977 | 11,795 | 24,630 | 12,399 |
| 1000/1000 | 10,591 | 7,738 | 21,636 | 12,129 |
| 1000/2000 | 9,356 | 8,581 | 18,499 | 9,838 |
| 2048/128 | 3,137 | 3,295 | 3,699 | 3,253 |
| 2048/2048 | 7,152 | 7,464 | 14,949 | 7,972 |
| 5000/500 | 2,937 | 3,107 | 4,605 | 3,342 |
| 20000/2000 | 1,644 | 1,767 | 2,105 | |
#### Llama 4 Scout - RTX 6000 Pro Blackwell Server Edition
| Sequence Length (ISL/OSL) | **4 GPUs**<br/>TP2,PP2 (FP4) | **8 GPUs**<br/>TP4,PP2 (FP4) |
| 128/128 | 18,644 | 23,454 |
| 128/2048 | 12,321 | 21,035 |
| 128/4096 | 7,643 | 13,421 |
| 1000/1000 | 9,476 | 15,781 |
| 1000/2000 | 8,919 | 16,434 |
| 2048/128 | 2,615 | 2,941 |
| 2048/2048 | 6,208 | 10,410 |
| 5000/500 | 2,662 | |
#### Llama 3.3 70B
| Sequence Length (ISL/OSL) | B200<br/>TP1 (FP4) | GB200<br/>TP1 (FP4) | H200<br/>TP1 (FP8) | H100<br/>TP2 (FP8) |
| 128/128 | 11,147 | 12,189 | 3,803 | 6,378 |
| 128/2048 | 9,922 | 11,309 | 4,336 | 6,651 |
| 128/4096 | 6,831 | 7,849 | 2,872 | 4,199 |
| 500/2000 | 7,762 | 9,028 | 3,666 | 5,222 |
| 1000/1000 | 7,007 | 7,326 | 2,909 | 4,205 |
| 1000/2000 | 6,271 | 6,513 | 2,994 | 4,146 |
| 2048/128 | 1,339 | 1,450 | 442 | 762 |
| 2048/2048 | 4,783 | 5,646 | 2,003 | 3,082 |
| 5000/500 | 1,459 | 1,602 | 566 | 898 |
| 20000/2000 | 665 | 755 | 283 | 437 |
#### Llama 3.3 70B - RTX 6000 Pro Blackwell Server Edition
| Sequence Length (ISL/OSL) | **1 GPUs**<br/>TP1,PP1 (FP4) | **2 GPUs**<br/>TP1,PP2 (FP4) | **4 GPUs**<br/>TP1,PP4 (FP4) | **8 GPUs**<br/>TP1,PP8 (FP4) |
| 128/128 | 3,264 | 6,172 | 9,641 | 11,881 |
| 128/2048 | 2,422 | 4,993 | 7,922 | 9,833 |
| 128/4096 | 1,349 | 2,893 | 4,978 | 7,352 |
| 500/2000 | 1,856 | 4,114 | 6,939 | 9,435 |
| 1000/1000 | 1,787 | 3,707 | 5,961 | 8,166 |
| 1000/2000 | 1,594 | 2,993 | 5,274 | 6,943 |
| 2048/128 | 393 | 813 | 1,511 | 2,495 |
| 2048/2048 | 1,074 | 2,336 | 3,870 | 6,078 |
| 5000/500 | 401 | 812 | 1,511 | 2,491 |
| 20000/2000 | 142 | 319 | 630 | 1,148 |
#### Qwen3-235B-A22B
| Sequence Length (ISL/OSL) | B200<br/>TP8 (FP4) | H200<br/>TP8 (FP8) | H100<br/>TP8 (FP8) |
| 128/128 | 63,362 | 30,429 | |
| 128/2048 | 66,057 | 42,821 | 19,658 |
| 128/4096 | 39,496 | 26,852 | 12,447 |
| 500/2000 | 57,117 | 28,026 | 18,351 |
| 1000/1000 | 42,391 | 23,789 | 14,898 |
| 1000/2000 | 34,105 | 22,061 | 15,136 |
| 2048/128 | 7,329 | 3,331 | |
| 2048/2048 | 26,854 | 16,672 | 9,924 |
| 5000/500 | 8,190 | 3,623 | 3,225 |
| 20000/2000 | 4,453 | 1,876 | |
#### Qwen3-235B-A22B - RTX 6000 Pro Blackwell Server Edition
| Sequence Length (ISL/OSL) | **8 GPUs**<br/>TP2,PP4 (FP4) |
| 128/128 | 18,890 |
| 128/2048 | 12,494 |
| 128/4096 | 7,715 |
| 500/2000 | 11,157 |
| 1000/1000 | 10,697 |
| 1000/2000 | 10,109 |
| 2048/128 | 3,181 |
| 2048/2048 | 6,712 |
| 5000/500 | 3,173 |
#### Qwen3-30B-A3B
| Sequence Length (ISL/OSL) | B200<br/>TP1 (FP4) | GB200<br/>TP1 (FP4) |
| 128/128 | 39,827 | 24,107 |
| 128/2048 | 37,844 | 31,311 |
| 128/4096 | 24,953 | 26,337 |
| 500/2000 | 27,817 | 20,604 |
| 1000/1000 | 25,828 | 17,481 |
| 1000/2000 | 22,051 | 17,177 |
| 2048/128 | 6,251 | 6,595 |
| 2048/2048 | 17,554 | 14,719 |
| 5000/500 | 6,142 | 5,908 |
| 20000/2000 | 2,944 | 3,203 |
#### Qwen3-30B-A3B - RTX 6000 Pro Blackwell Server Edition
| Sequence Length (ISL/OSL) | **1 GPUs**<br/>TP1,PP1 (FP4) | **2 GPUs**<br/>TP2,PP1 (FP4) | **4 GPUs**<br/>TP4,PP1 (FP4) | **8 GPUs**<br/>TP8,PP1 (FP4) |
| 128/128 | 28,011 | 32,646 | 36,819 | 39,490 |
| 128/2048 | 12,540 | 22,744 | 35,715 | 52,676 |
| 128/4096 | 7,491 | 15,049 | 28,139 | 33,895 |
| 500/2000 | 10,695 | 17,266 | 26,175 | 44,088 |
| 1000/1000 | 9,910 | 16,431 | 24,046 | 31,785 |
| 1000/2000 | 8,378 | 13,323 | 25,131 | 28,881 |
| 2048/128 | 3,257 | 3,785 | 4,311 | 4,798 |
| 2048/2048 | 5,908 | 10,679 | 18,134 | 22,391 |
| 5000/500 | 2,530 | 3,799 | 5,212 | 5,965 |
| 20000/2000 | 871 | 1,558 | 2,551 | |
#### Llama 4 Maverick
| Sequence Length (ISL/OSL) | B200<br/>TP8 (FP4) | H200<br/>TP8 (FP8) | H100<br/>TP8 (FP8) |
| 128/128 | 124,323 | 63,994 | |
| 128/2048 | 112,676 | 40,572 | 10,829 |
| 128/4096 | 68,170 | 24,616 | 6,744 |
| 500/2000 | | 37,835 | 10,108 |
| 1000/1000 | 79,617 | 31,782 | 9,677 |
| 1000/2000 | 63,766 | 34,734 | 9,151 |
| 2048/128 | 18,088 | 7,307 | |
| 2048/2048 | 52,195 | 20,957 | 6,916 |
| 5000/500 | | 8,456 | 3,457 |
| 20000/2000 | 12,678 | 4,106 | |
#### Llama 4 Maverick - RTX 6000 Pro Blackwell Server Edition
| Sequence Length (ISL/OSL) | **8 GPUs**<br/>TP4,PP2 (FP4) |
| 128/128 | 30,583 |
| 128/2048 | 19,146 |
| 128/4096 | 12,165 |
| 500/2000 | 17,870 |
| 1000/1000 | 15,954 |
| 1000/2000 | 12,456 |
| 2048/128 | 4,463 |
| 2048/2048 | 10,727 |
| 5000/500 | 4,613 |
#### Llama 3.1 405B
| Sequence Length (ISL/OSL) | B200<br/>TP4 (FP4) | GB200<br/>TP4 (FP4) | H200<br/>TP8 (FP8) | H100<br/>TP8 (FP8) |
| 128/128 | 6,281 | 6,740 | 3,814 | 3,627 |
| 128/2048 | 8,020 | 8,151 | 5,348 | 4,340 |
| 128/4096 | 6,345 | 6,608 | 4,741 | 3,116 |
| 500/2000 | 6,244 | 6,540 | 4,724 | 3,994 |
| 1000/1000 | 5,209 | 5,389 | 3,330 | 2,919 |
| 1000/2000 | 4,933 | 5,135 | 3,722 | 2,895 |
| 2048/128 | 749 | 797 | 456 | 453 |
| 2048/2048 | 4,212 | 4,407 | 2,948 | 2,296 |
| 5000/500 | 1,048 | 1,112 | 650 | 610 |
| 20000/2000 | 672 | 739 | 505 | 345 |
#### Llama 3.1 405B - RTX 6000 Pro Blackwell Server Edition
| Sequence Length (ISL/OSL) | **8 GPUs**<br/>TP1,PP8 (FP4) |
| 128/128 | 4,452 |
| 128/2048 | 2,981 |
| 1000/1000 | 2,369 |
| 1000/2000 | 1,931 |
| 2048/128 | 579 |
| 2048/2048 | 1,442 |
#### Llama 3.1 8B
| Sequence Length (ISL/OSL) | H200<br/>TP1 (FP8) | H100<br/>TP1 (FP8) |
| 128/128 | 27,911 | 28,312 |
| 128/2048 | 26,221 | 22,714 |
| 128/4096 | 18,027 | 14,325 |
| 500/2000 | 20,770 | 17,660 |
| 1000/1000 | 17,744 | 15,220 |
| 1000/2000 | 16,828 | 13,899 |
| 2048/128 | 3,538 | 3,450 |
| 2048/2048 | 12,194 | 9,305 |
| 5000/500 | 3,902 | 3,459 |
| 20000/2000 | 1,804 | 1,351 |
"""

TABLES['pt-19286142392'] = """\
# Deepseek R1 0528
| Sequence Length (ISL/OSL) | B200<br/>DEP4 (FP4) | GB200<br/>DEP4 (FP4) | H200<br/>DEP8 (FP8) |
| 1000/1000 | 5,715 | 5,884 | 1,627 |
| 1024/1024 | 5,610 | 6,169 | 1,620 |
| 1024/8192 | 3,841 | 4,201 | 1,218 |
| 1024/32768 | 1,409 | 1,465 | 438 |
| 8192/1024 | 1,100 | 1,182 | |
# GPT-OSS 120B
| Sequence Length (ISL/OSL) | B200<br/>DEP2 (FP4) | GB200<br/>TP1 (FP4) | H200<br/>TP1 (FP8) | H100<br/>DEP4 (FP8) |
| 1000/1000 | 25,926 | 27,198 | 6,602 | 4,685 |
| 1024/1024 | 25,833 | 26,609 | 6,798 | 4,715 |
| 1024/8192 | 17,277 | 14,800 | 3,543 | |
| 1024/32768 | 6,272 | 5,556 | | 1,177 |
| 8192/1024 | 6,094 | 6,835 | 1,828 | 1,169 |
| 32768/1024 | 1,388 | 1,645 | 519 | 333 |
# GPT-OSS 20B
| Sequence Length (ISL/OSL) | B200<br/>TP1 (FP4) | GB200<br/>TP1 (FP4) | H200<br/>TP1 (FP8) | H100<br/>TP1 (FP8) |
| 1000/1000 | 53,761 | 55,823 | 13,858 | 11,557 |
| 1024/1024 | 53,112 | 56,528 | 13,248 | 11,403 |
| 1024/8192 | 34,665 | 38,100 | 12,743 | 8,617 |
| 1024/32768 | 14,560 | 16,463 | | |
| 8192/1024 | 11,898 | 12,941 | 3,848 | 3,366 |
| 32768/1024 | 2,641 | 2,905 | 875 | 785 |
# LLaMA v3.3 70B
| Sequence Length (ISL/OSL) | B200<br/>TP1 (FP4) | GB200<br/>TP1 (FP4) | H200<br/>TP1 (FP8) | H100<br/>TP2 (FP8) |
| 1000/1000 | 6,897 | 7,769 | 2,646 | 2,209 |
| 1024/1024 | 6,841 | 7,751 | 2,785 | |
| 1024/8192 | 3,240 | 3,805 | | |
| 8192/1024 | 1,362 | 1,491 | 521 | 398 |
| 32768/1024 | 274 | 302 | | |
# LLaMA v3.3 70B - RTX Configurations (TP/PP)
| Sequence Length (ISL/OSL) | **1 GPUs**<br/>TP1,PP1 (FP4) | **2 GPUs**<br/>TP1,PP2 (FP4) |
| 1000/1000 | 1,454 | 1,524 |
| 1024/1024 | 1,708 | 1,887 |
| 8192/1024 | 296 | 327 |
| 32768/1024 | | 67 |
# LLaMA v4 Maverick
| Sequence Length (ISL/OSL) | B200<br/>DEP4 (FP4) | GB200<br/>DEP4 (FP4) | H200<br/>DEP8 (FP8) |
| 1000/1000 | 11,328 | 11,828 | 4,146 |
| 1024/1024 | 11,227 | 11,905 | 4,180 |
| 1024/8192 | 5,164 | 5,508 | 1,157 |
| 1024/32768 | 2,187 | 2,300 | 679 |
| 8192/1024 | 3,277 | 3,444 | 1,276 |
| 32768/1024 | 858 | 963 | |
# LLaMA v4 Maverick - RTX Configurations (TP/PP)
| Sequence Length (ISL/OSL) | **4 GPUs**<br/>DEP4,PP1 (FP4) | **8 GPUs**<br/>DEP8,PP1 (FP4) |
| 1000/1000 | | 1,582 |
| 1024/1024 | 1,734 | |
| 1024/8192 | 620 | 638 |
# Qwen3 235B A22B
| Sequence Length (ISL/OSL) | B200<br/>DEP4 (FP4) | GB200<br/>DEP4 (FP4) | H200<br/>DEP4 (FP8) | H100<br/>DEP8 (FP8) |
| 1000/1000 | 5,758 | 6,172 | 3,165 | 1,932 |
| 1024/1024 | 5,752 | 5,862 | 3,268 | 1,935 |
| 1024/8192 | 3,388 | 3,423 | 1,417 | 873 |
| 1024/32768 | 1,255 | | | |
| 8192/1024 | 1,409 | 1,464 | 627 | |
| 32768/1024 | 318 | 333 | 134 | |
# Qwen3 235B A22B - RTX Configurations (TP/PP)
| Sequence Length (ISL/OSL) | **4 GPUs**<br/>DEP4,PP1 (FP4) | **8 GPUs**<br/>DEP8,PP1 (FP4) |
| 1000/1000 | 1,378 | 946 |
| 1024/1024 | 1,377 | 941 |
| 1024/8192 | 656 | 669 |
| 8192/1024 | 246 | 177 |
| 32768/1024 | 57 | |
# Qwen3 30B A3B
| Sequence Length (ISL/OSL) | B200<br/>TP1 (FP4) | GB200<br/>TP1 (FP4) |
| 1000/1000 | 26,941 | 22,856 |
| 1024/1024 | 26,587 | 22,201 |
| 1024/8192 | 13,492 | 14,272 |
| 1024/32768 | 4,494 | 4,925 |
| 8192/1024 | 5,730 | 6,201 |
| 32768/1024 | 1,263 | 1,380 |
# Qwen3 30B A3B - RTX Configurations (TP/PP)
| Sequence Length (ISL/OSL) | **2 GPUs**<br/>DEP2,PP1 (FP4) | **4 GPUs**<br/>DEP2,PP2 (FP4) | **8 GPUs**<br/>DEP4,PP2 (FP4) | **1 GPUs**<br/>TP1,PP1 (FP4) |
| 1000/1000 | 7,844 | 6,423 | 5,034 | 9,142 |
| 1024/1024 | 7,203 | 6,350 | 4,856 | 8,999 |
| 1024/8192 | 3,289 | 2,708 | 2,300 | 3,335 |
| 1024/32768 | | | 1,083 | |
| 8192/1024 | 1,447 | 1,384 | 973 | 1,758 |
| 32768/1024 | 251 | 242 | 220 | 324 |
"""

TABLES['pt-585c7565'] = """\
# Deepseek R1 0528
| Sequence Length (ISL/OSL) | B200<br/>DEP4 (FP4) | GB200<br/>DEP4 (FP4) | H200<br/>DEP8 (FP8) |
| 1000/1000 | 6,463 | 6,939 | 1,627 |
| 1024/1024 | 6,430 | 6,924 | 1,620 |
| 1024/8192 | 3,862 | 4,379 | 1,218 |
| 1024/32768 | 1,451 | 1,465 | 438 |
| 8192/1024 | 1,168 | 1,192 | |
# GPT-OSS 120B
| Sequence Length (ISL/OSL) | B200<br/>DEP2 (FP4) | GB200<br/>TP1 (FP4) | H200<br/>TP1 (FP8) | H100<br/>DEP4 (FP8) |
| 1000/1000 | 25,943 | 27,198 | 6,868 | 4,685 |
| 1024/1024 | 25,870 | 26,609 | 6,798 | 4,715 |
| 1024/8192 | 17,289 | 14,800 | 3,543 | |
| 1024/32768 | 6,279 | 5,556 | | 1,177 |
| 8192/1024 | 6,111 | 6,835 | 1,828 | 1,169 |
| 32768/1024 | 1,392 | 1,645 | 519 | 333 |
# GPT-OSS 20B
| Sequence Length (ISL/OSL) | B200<br/>TP1 (FP4) | GB200<br/>TP1 (FP4) | H200<br/>TP1 (FP8) | H100<br/>TP1 (FP8) |
| 1000/1000 | 53,812 | 55,823 | 13,858 | 11,557 |
| 1024/1024 | 53,491 | 56,528 | 13,890 | 11,403 |
| 1024/8192 | 34,702 | 38,100 | 12,743 | 8,617 |
| 1024/32768 | 14,589 | 16,463 | | |
| 8192/1024 | 11,904 | 12,941 | 4,015 | 3,366 |
| 32768/1024 | 2,645 | 2,905 | 915 | 785 |
# LLaMA v3.3 70B
| Sequence Length (ISL/OSL) | B200<br/>TP1 (FP4) | GB200<br/>TP1 (FP4) | H200<br/>TP2 (FP8) | H100<br/>TP2 (FP8) |
| 1000/1000 | 6,920 | 7,769 | 2,587 | 2,209 |
| 1024/1024 | 6,842 | 7,751 | 2,582 | |
| 1024/8192 | 3,242 | 3,805 | 2,009 | |
| 8192/1024 | 1,362 | 1,491 | 537 | 398 |
| 32768/1024 | 274 | 302 | 120 | |
# LLaMA v3.3 70B - RTX 6000 Pro Blackwell Server Edition
| Sequence Length (ISL/OSL) | **1 GPUs**<br/>TP1,PP1 (FP4) | **2 GPUs**<br/>TP1,PP2 (FP4) |
| 1000/1000 | 1,724 | 1,901 |
| 1024/1024 | 1,708 | 1,887 |
| 8192/1024 | 296 | 327 |
| 32768/1024 | | 67 |
# LLaMA v4 Maverick
| Sequence Length (ISL/OSL) | B200<br/>DEP4 (FP4) | GB200<br/>DEP4 (FP4) | H200<br/>DEP8 (FP8) |
| 1000/1000 | 11,337 | 11,828 | 4,146 |
| 1024/1024 | 11,227 | 11,905 | 4,180 |
| 1024/8192 | 5,174 | 5,508 | 1,157 |
| 1024/32768 | 2,204 | 2,300 | 679 |
| 8192/1024 | 3,279 | 3,444 | 1,276 |
| 32768/1024 | 859 | 963 | |
# Qwen3 235B A22B
| Sequence Length (ISL/OSL) | B200<br/>DEP4 (FP4) | GB200<br/>DEP4 (FP4) | H200<br/>DEP4 (FP8) | H100<br/>DEP8 (FP8) |
| 1000/1000 | 5,764 | 6,172 | 3,288 | 1,932 |
| 1024/1024 | 5,756 | 5,862 | 3,268 | 1,935 |
| 1024/8192 | 3,389 | 3,423 | 1,417 | 873 |
| 1024/32768 | 1,255 | | | |
| 8192/1024 | 1,410 | 1,464 | 627 | |
| 32768/1024 | 319 | 333 | 134 | |
# Qwen3 235B A22B - RTX 6000 Pro Blackwell Server Edition
| Sequence Length (ISL/OSL) | **4 GPUs**<br/>DEP2,PP2 (FP4) | **8 GPUs**<br/>DEP8,PP1 (FP4) |
| 1000/1000 | 1,731 | 969 |
| 1024/1024 | 1,732 | 963 |
| 1024/8192 | 644 | 711 |
| 32768/1024 | 70 | |
# Qwen3 30B A3B
| Sequence Length (ISL/OSL) | B200<br/>TP1 (FP4) | GB200<br/>TP1 (FP4) |
| 1000/1000 | 26,971 | 22,856 |
| 1024/1024 | 26,611 | 22,201 |
| 1024/8192 | 13,497 | 14,272 |
| 1024/32768 | 4,494 | 4,925 |
| 8192/1024 | 5,735 | 6,201 |
| 32768/1024 | 1,265 | 1,380 |
# Qwen3 30B A3B - RTX 6000 Pro Blackwell Server Edition
| Sequence Length (ISL/OSL) | **2 GPUs**<br/>DEP2,PP1 (FP4) | **4 GPUs**<br/>DEP2,PP2 (FP4) | **8 GPUs**<br/>DEP8,PP1 (FP4) | **1 GPUs**<br/>TP1,PP1 (FP4) |
| 1000/1000 | 8,409 | 7,059 | 3,985 | 9,938 |
| 1024/1024 | | 7,019 | | 9,755 |
| 1024/8192 | 3,577 | | 2,406 | 3,621 |
| 8192/1024 | | 1,416 | | 1,914 |
| 32768/1024 | | | 180 | 374 |
"""
TABLES['pt-53206213621'] = """\
# Deepseek R1 0528
| Sequence Length (ISL/OSL) | B200<br/>DEP4 (FP4) | B300* (beta)<br/>DEP4 (FP4) | GB200<br/>DEP4 (FP4) | GB300* (beta)<br/>DEP4 (FP4) | H200<br/>DEP8 (FP8) |
| 1024/1024 | 5,757 | 6,046 | 4,989 | 4,981 | 1,724 |
| 1024/8192 | 4,228 | 6,235 | 4,474 | 6,842 | 1,335 |
| 1024/32768 | 1,472 | 2,177 | 1,582 | 2,904 | |
| 8192/1024 | 1,176 | 1,489 | 1,276 | 1,599 | |
| 32768/1024 | | | | 335 | |
# GPT-OSS 120B
| Sequence Length (ISL/OSL) | B200<br/>DEP2 (FP4) | B300* (beta)<br/>TP1 (FP4) | GB200<br/>TP1 (FP4) | GB300* (beta)<br/>TP1 (FP4) | H200<br/>DEP2 (FP8) |
| 1024/1024 | 29,061 | 34,737 | 29,056 | 38,702 | 6,391 |
| 1024/8192 | 16,434 | 18,338 | 17,079 | 19,866 | 4,260 |
| 1024/32768 | 7,020 | 7,284 | 6,313 | 7,958 | |
| 8192/1024 | 6,938 | 8,361 | 7,874 | 9,407 | 1,881 |
| 32768/1024 | 1,623 | 2,052 | 1,929 | 2,307 | 500 |
# GPT-OSS 20B
| Sequence Length (ISL/OSL) | B200<br/>TP1 (FP4) | B300* (beta)<br/>TP1 (FP4) | GB200<br/>TP1 (FP4) | GB300* (beta)<br/>TP1 (FP4) | H200<br/>TP1 (FP8) |
| 1024/1024 | 59,084 | 60,925 | 51,870 | 53,604 | 14,719 |
| 1024/8192 | 37,824 | 42,986 | 35,280 | 44,998 | 12,441 |
| 1024/32768 | 15,799 | 17,461 | 17,414 | 19,147 | 4,240 |
| 8192/1024 | 13,439 | 14,955 | 15,466 | 16,880 | 4,196 |
| 32768/1024 | 2,970 | 3,408 | 3,331 | 3,833 | 965 |
# LLaMA v3.3 70B
| Sequence Length (ISL/OSL) | B200<br/>TP1 (FP4) | B300* (beta)<br/>TP1 (FP4) | GB200<br/>TP1 (FP4) | GB300* (beta)<br/>TP1 (FP4) | H200<br/>TP2 (FP8) |
| 1024/1024 | 6,943 | 8,196 | 7,576 | 8,910 | 2,637 |
| 1024/8192 | 3,270 | 3,926 | 3,856 | 4,739 | 1,995 |
| 8192/1024 | 1,347 | 1,597 | 1,593 | 1,900 | 544 |
| 32768/1024 | 279 | 351 | 315 | 418 | 120 |
# LLaMA v3.3 70B - RTX 6000 Pro Blackwell Server Edition
| Sequence Length (ISL/OSL) | **1 GPUs**<br/>TP1,PP1 (FP4) | **2 GPUs**<br/>TP1,PP2 (FP4) | **4 GPUs**<br/>TP1,PP4 (FP4) | **8 GPUs**<br/>TP1,PP8 (FP4) |
| 1024/1024 | 1,724 | 1,881 | 1,798 | 1,545 |
| 1024/8192 | | | 675 | 630 |
| 8192/1024 | 306 | 329 | 323 | 307 |
| 32768/1024 | | 66 | 66 | 64 |
# Qwen3 235B A22B
| Sequence Length (ISL/OSL) | B200<br/>DEP4 (FP4) | B300* (beta)<br/>DEP4 (FP4) | GB200<br/>DEP4 (FP4) | GB300* (beta)<br/>DEP4 (FP4) | H200<br/>DEP4 (FP8) |
| 1024/1024 | 6,423 | 8,143 | 6,777 | 8,430 | 3,494 |
| 1024/8192 | 3,881 | 4,938 | 3,955 | 5,110 | 1,677 |
| 1024/32768 | 1,216 | 1,922 | 1,240 | 1,841 | |
| 8192/1024 | 1,518 | 1,730 | 1,575 | 1,791 | 679 |
| 32768/1024 | 326 | 383 | 342 | 398 | 143 |
# Qwen3 235B A22B - RTX 6000 Pro Blackwell Server Edition
| Sequence Length (ISL/OSL) | **4 GPUs**<br/>TP1,PP4 (FP4) | **8 GPUs**<br/>TP1,PP8 (FP4) |
| 1024/1024 | 1,529 | 1,185 |
| 1024/8192 | 495 | 495 |
| 8192/1024 | 343 | 337 |
| 32768/1024 | 81 | 83 |
# Qwen3 30B A3B
| Sequence Length (ISL/OSL) | B200<br/>TP1 (FP4) | B300* (beta)<br/>TP1 (FP4) | GB200<br/>TP1 (FP4) | GB300* (beta)<br/>TP1 (FP4) |
| 1024/1024 | 26,431 | 30,714 | 19,682 | 22,536 |
| 1024/8192 | 13,940 | 15,182 | 14,916 | 16,920 |
| 1024/32768 | 4,570 | 5,209 | | |
| 8192/1024 | 5,945 | 6,374 | 6,450 | 6,947 |
| 32768/1024 | 1,284 | 1,452 | 1,398 | 1,575 |
# Qwen3 30B A3B - RTX 6000 Pro Blackwell Server Edition
| Sequence Length (ISL/OSL) | **1 GPUs**<br/>TP1,PP1 (FP4) | **2 GPUs**<br/>TP1,PP2 (FP4) | **4 GPUs**<br/>TP1,PP4 (FP4) | **8 GPUs**<br/>TP1,PP8 (FP4) |
| 1024/1024 | 9,908 | 8,187 | 6,931 | 3,065 |
| 1024/8192 | 3,628 | 3,281 | 3,024 | 1,968 |
| 1024/32768 | | | | 918 |
| 8192/1024 | 1,925 | 1,805 | 1,656 | 1,193 |
| 32768/1024 | 372 | 356 | 349 | 318 |
"""
