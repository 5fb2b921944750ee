/**
 * The benchmark tools that produced the engine figures (bench/engines/cells-*.json), and what each
 * sends the engine: token ids, or text the server (or the engine's own front end) tokenizes on the
 * timed path. A tool that feeds token ids runs no tokenizer, so its cells are priced without the
 * engine's request-path tokenizer (`host.tokenizeUsPerToken`, request-path.ts), whatever the engine.
 * Each entry is a stated fact of the tool's source, quoted with where it was read; a source whose tool
 * is not stated names none and is priced as the engine's server (the rule's own path).
 */

/** What a tool hands the engine on the timed path. */
export const PROMPT_INPUTS = ['token-ids', 'text'] as const;
export type PromptInput = (typeof PROMPT_INPUTS)[number];

export const BENCH_TOOLS = {
  gptSessionBenchmark: {
    title: 'TensorRT-LLM benchmarks/cpp/gptSessionBenchmark (static batches, C++ runtime)',
    prompts: 'token-ids',
    stated:
      'benchmarks/cpp/gptSessionBenchmark.cpp (NVIDIA/TensorRT-LLM, 027cd518): the batch is made in the benchmark, ' +
      '`std::vector<int32_t> inputsHost(batchSize * maxInputLength, padId)`, copied to the GPU and passed to ' +
      '`session.generate`; no tokenizer is loaded',
  },
  gptManagerBenchmark: {
    title: 'TensorRT-LLM benchmarks/cpp/gptManagerBenchmark (in-flight batching, GptManager or executor API)',
    prompts: 'token-ids',
    stated:
      'benchmarks/cpp/gptManagerBenchmark.cpp `parseWorkloadJson`: each sample is `Sample{sample["input_ids"], ...}` ' +
      'from the dataset benchmarks/cpp/prepare_dataset.py writes; the requests carry those ids',
  },
  'trtllm-bench': {
    title: 'TensorRT-LLM trtllm-bench throughput (TensorRT engine or PyTorch backend)',
    prompts: 'token-ids',
    stated:
      "docs/source/performance/perf-overview.md (v0.14.0) 'Preparing a Dataset': prepare_dataset.py token-norm-dist " +
      "'randomly sample[s] token IDs ... to create entirely random sequences'; perf-benchmarking.md: `input_ids` is the " +
      "'List of logits that make up the request prompt', and 'If you specify `input_ids`, the `prompt` entry is ignored'",
  },
  'tensorrt-llm-run-py': {
    title: "TensorRT-LLM's examples/run.py --run_profiling (Argonne's LLM-Inference-Bench copies and variants)",
    prompts: 'token-ids',
    stated:
      'argonne-lcf/LLM-Inference-Bench TensorRT-LLM/A100/Benchmarking_Throughput/run.py (e1f51424): ' +
      '`batch_input_ids = parse_input(tokenizer=tokenizer, ...)` once, then `tensorrt_llm.profiler.start("tmp")` ... ' +
      '`runner.generate(batch_input_ids, ...)` ... `tensorrt_llm.profiler.stop("tmp")`: the timed generate gets ids',
  },
  'vllm-benchmark-latency': {
    title: 'vLLM benchmarks/benchmark_latency.py (one static batch through the offline LLM)',
    prompts: 'token-ids',
    stated:
      'benchmarks/benchmark_latency.py: `dummy_prompt_token_ids = np.random.randint(10000, size=(args.batch_size, ' +
      'args.input_len))`, passed as `{"prompt_token_ids": batch}` (earlier: `prompt_token_ids=`) to `llm.generate`',
  },
  'vllm-offline-token-ids': {
    title: "Argonne's LLM-Inference-Bench vLLM scripts: the offline LLM on a static batch of random token ids",
    prompts: 'token-ids',
    stated:
      'argonne-lcf/LLM-Inference-Bench vLLM/A100/Throughput_measurement/benchmark_throughput.py (300bc9e5): ' +
      '`dummy_prompt_token_ids = np.random.randint(10000, size=(args.batch_size, args.input_len))`, passed as ' +
      '`{"prompt_token_ids": batch}`; `start_time = time.perf_counter()` around one `llm.generate(dummy_inputs, ...)`',
  },
  'vllm-benchmark-throughput': {
    title: 'vLLM benchmarks/benchmark_throughput.py (offline LLM, prompts as text)',
    prompts: 'text',
    stated:
      'benchmarks/benchmark_throughput.py hands the engine prompt strings (ShareGPT text, or without a dataset ' +
      '`prompt = "hi" * (args.input_len - 1)`), which it tokenizes when it adds each request',
  },
  'vllm-llm-generate-text': {
    title: "A script calling vLLM's offline LLM.generate on prompt strings (Hamel Husain's, Prem AI's bench_vllm)",
    prompts: 'text',
    stated:
      "the cells' notes: 'vLLM offline LLM(...).generate on one prompt at a time' (9 fixed prompts), 'vLLM offline " +
      "LLM.generate (bench_vllm)' on a chat-templated prompt string",
  },
  'vllm-benchmark-serving': {
    title: 'vLLM benchmarks/benchmark_serving.py / `vllm bench serve` (an HTTP client)',
    prompts: 'text',
    stated:
      'benchmarks/backend_request_func.py: the OpenAI backends post `"prompt": request_func_input.prompt`; ' +
      '`async_request_trt_llm` posts `"text_input"` to the Triton ensemble, whose preprocessing model tokenizes it',
  },
  'sglang-bench-serving': {
    title: 'SGLang python/sglang/bench_serving.py (an HTTP client)',
    prompts: 'text',
    stated:
      'python/sglang/bench_serving.py posts each prompt as text: `"text"` to SGLang\'s /generate (its TokenizerManager ' +
      'tokenizes it, request-path.ts), `"prompt"` to an OpenAI-style completions endpoint (vLLM\'s API server)',
  },
} as const satisfies Record<string, { title: string; prompts: PromptInput; stated: string }>;

export type BenchTool = keyof typeof BENCH_TOOLS;
export const BENCH_TOOL_NAMES = Object.keys(BENCH_TOOLS) as [BenchTool, ...BenchTool[]];

/** Whether the tool feeds the engine token ids (no tokenizer on the timed path). */
export function feedsTokenIds(tool: BenchTool | undefined): boolean {
  return tool !== undefined && BENCH_TOOLS[tool].prompts === 'token-ids';
}
