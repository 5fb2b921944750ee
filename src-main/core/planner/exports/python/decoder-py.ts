/**
 * The decoder every training script builds, as Python: config.json read over MODEL_CONFIG, RMSNorm or
 * LayerNorm, rotary or learned positions, grouped-query attention (fused where torch has
 * scaled_dot_product_attention, written out on torch 1.13), gated or plain MLP, Megatron-style
 * tensor-parallel splits (heads and MLP columns, with the f/g all-reduces), and one pipeline
 * stage's blocks. Runs on torch 1.13 and later. Pure (text).
 */
export const DECODER_PY = `
# ---------------------------------------------------------------- the model, from its config


# A Hugging Face config.json's names for the same fields (GPT-2's), and what a file without norm, position and
# MLP kinds gets (Llama's: GPT-2's model_type gets LayerNorm, learned positions and a plain GELU MLP).
ALIASES = {"n_embd": "hidden_size", "n_layer": "num_hidden_layers", "n_head": "num_attention_heads",
           "n_inner": "intermediate_size", "n_positions": "max_position_embeddings"}
LLAMA_KINDS = {"norm": "rmsnorm", "norm_eps": 1e-6, "position": "rope", "rope_theta": 10000.0, "mlp": "gated",
               "hidden_act": "silu", "qkv_bias": False, "o_bias": False, "mlp_bias": False,
               "tie_word_embeddings": False}
GPT2_KINDS = {"norm": "layernorm", "norm_eps": 1e-5, "position": "learned", "rope_theta": 10000.0, "mlp": "plain",
              "hidden_act": "gelu_pytorch_tanh", "qkv_bias": True, "o_bias": True, "mlp_bias": True,
              "tie_word_embeddings": True}


def read_config(path):
    """MODEL_CONFIG, with the fields a Hugging Face config.json at path gives (its text_config when nested)."""
    if not path:
        if MODEL_CONFIG is None:
            raise SystemExit("this plan's model is not one this script builds (see the notes at the top): "
                             "pass --config with a decoder's config.json")
        return dict(MODEL_CONFIG)
    with open(path) as f:
        hf = json.load(f)
    hf = hf.get("text_config", hf)
    hf = {ALIASES.get(k, k): v for k, v in hf.items()}
    cfg = dict(MODEL_CONFIG or (GPT2_KINDS if hf.get("model_type") == "gpt2" else LLAMA_KINDS))
    for key in ("hidden_size", "num_hidden_layers", "num_attention_heads", "num_key_value_heads", "head_dim",
                "intermediate_size", "vocab_size", "max_position_embeddings", "rope_theta", "hidden_act",
                "tie_word_embeddings", "mlp_bias"):
        if hf.get(key) is not None:
            cfg[key] = hf[key]
    if hf.get("attention_bias") is not None:
        cfg["qkv_bias"] = cfg["o_bias"] = hf["attention_bias"]
    for key in ("rms_norm_eps", "layer_norm_eps", "layer_norm_epsilon"):
        if hf.get(key) is not None:
            cfg["norm_eps"] = hf[key]
    if hf.get("head_dim") is None:
        cfg["head_dim"] = cfg["hidden_size"] // cfg["num_attention_heads"]
    if hf.get("num_key_value_heads") is None:
        cfg["num_key_value_heads"] = cfg["num_attention_heads"]
    cfg.setdefault("intermediate_size", 4 * cfg["hidden_size"])
    return cfg


class RMSNorm(nn.Module):
    def __init__(self, dim, eps):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        y = x.float()
        y = y * torch.rsqrt(y.pow(2).mean(-1, keepdim=True) + self.eps)
        return y.type_as(x) * self.weight


def make_norm(cfg):
    if cfg["norm"] == "rmsnorm":
        return RMSNorm(cfg["hidden_size"], cfg["norm_eps"])
    return nn.LayerNorm(cfg["hidden_size"], eps=cfg["norm_eps"])


def activation(name):
    if name in ("gelu_pytorch_tanh", "gelu_new", "gelu_fast"):
        return lambda x: F.gelu(x, approximate="tanh")
    return F.silu if name == "silu" else F.gelu


class _CopyToTP(torch.autograd.Function):
    """Megatron's f: the input as is forward, the gradient summed over the tensor-parallel group backward."""

    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, grad):
        grad = grad.contiguous()
        dist.all_reduce(grad, group=GROUPS["tp"])
        return grad


class _ReduceFromTP(torch.autograd.Function):
    """Megatron's g: the partial outputs summed over the tensor-parallel group forward, the gradient as is backward."""

    @staticmethod
    def forward(ctx, x):
        x = x.contiguous()
        dist.all_reduce(x, group=GROUPS["tp"])
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad


def copy_to_tp(x):
    return _CopyToTP.apply(x) if RUN["tp"] > 1 else x


def reduce_from_tp(x):
    return _ReduceFromTP.apply(x) if RUN["tp"] > 1 else x


def rope_tables(seq, dim, theta, device):
    inv = 1.0 / (theta ** (torch.arange(0, dim, 2, device=device).float() / dim))
    angles = torch.outer(torch.arange(seq, device=device).float(), inv)
    angles = torch.cat((angles, angles), dim=-1)
    return angles.cos(), angles.sin()


def rotate_half(x):
    a, b = x.chunk(2, dim=-1)
    return torch.cat((-b, a), dim=-1)


def causal_attention(q, k, v):
    """Fused attention where torch has it (2.0 and later); else the scores written out, masked and softmaxed in fp32."""
    if hasattr(F, "scaled_dot_product_attention"):
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)
    s = q.shape[-2]
    scores = (q @ k.transpose(-2, -1)).float() / math.sqrt(q.shape[-1])
    mask = torch.ones(s, s, dtype=torch.bool, device=q.device).triu(1)
    return scores.masked_fill(mask, float("-inf")).softmax(-1).to(v.dtype) @ v


def mark_tp_split(*modules):
    """Parameters each tensor-parallel rank holds a part of (the rest, norms and embeddings, every rank whole)."""
    for m in modules:
        for p in m.parameters() if m is not None else ():
            p.tp_split = True


class Attention(nn.Module):
    """Grouped-query attention; under tensor parallelism this rank holds heads / TP query heads (column split) and
    the matching share of the output projection (row split)."""

    def __init__(self, cfg):
        super().__init__()
        tp, h, hd = RUN["tp"], cfg["hidden_size"], cfg["head_dim"]
        self.heads = cfg["num_attention_heads"] // tp
        # Fewer key/value heads than GPUs: each rank keeps the one its query heads read (replicated).
        self.kv_heads = max(1, cfg["num_key_value_heads"] // tp)
        self.head_dim = hd
        bias = cfg["qkv_bias"]
        self.q_proj = nn.Linear(h, self.heads * hd, bias=bias)
        self.k_proj = nn.Linear(h, self.kv_heads * hd, bias=bias)
        self.v_proj = nn.Linear(h, self.kv_heads * hd, bias=bias)
        # The row-split projection's bias is added once, after the partial outputs are summed.
        self.o_proj = nn.Linear(self.heads * hd, h, bias=False)
        self.o_bias = nn.Parameter(torch.zeros(h)) if cfg["o_bias"] else None
        mark_tp_split(self.q_proj, self.k_proj, self.v_proj, self.o_proj)

    def forward(self, x, rope):
        b, s, _ = x.shape
        x = copy_to_tp(x)
        q = self.q_proj(x).view(b, s, self.heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(b, s, self.kv_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(b, s, self.kv_heads, self.head_dim).transpose(1, 2)
        if rope is not None:
            cos, sin = rope
            q = q * cos + rotate_half(q) * sin
            k = k * cos + rotate_half(k) * sin
        if self.kv_heads != self.heads:
            k = k.repeat_interleave(self.heads // self.kv_heads, dim=1)
            v = v.repeat_interleave(self.heads // self.kv_heads, dim=1)
        out = causal_attention(q, k, v).transpose(1, 2).reshape(b, s, self.heads * self.head_dim)
        out = reduce_from_tp(self.o_proj(out))
        return out if self.o_bias is None else out + self.o_bias


class MLP(nn.Module):
    """Gated (SwiGLU, GeGLU) or plain MLP; under tensor parallelism this rank holds intermediate_size / TP columns."""

    def __init__(self, cfg):
        super().__init__()
        h, inner, bias = cfg["hidden_size"], cfg["intermediate_size"] // RUN["tp"], cfg["mlp_bias"]
        self.gated = cfg["mlp"] == "gated"
        self.gate_proj = nn.Linear(h, inner, bias=bias) if self.gated else None
        self.up_proj = nn.Linear(h, inner, bias=bias)
        self.down_proj = nn.Linear(inner, h, bias=False)
        self.down_bias = nn.Parameter(torch.zeros(h)) if bias else None
        self.act = activation(cfg["hidden_act"])
        mark_tp_split(self.gate_proj, self.up_proj, self.down_proj)

    def forward(self, x):
        x = copy_to_tp(x)
        inner = self.act(self.gate_proj(x)) * self.up_proj(x) if self.gated else self.act(self.up_proj(x))
        out = reduce_from_tp(self.down_proj(inner))
        return out if self.down_bias is None else out + self.down_bias


class Block(nn.Module):
    """A pre-norm decoder block: x + attention(norm(x)), then x + mlp(norm(x))."""

    def __init__(self, cfg):
        super().__init__()
        self.input_layernorm = make_norm(cfg)
        self.self_attn = Attention(cfg)
        self.post_attention_layernorm = make_norm(cfg)
        self.mlp = MLP(cfg)

    def forward(self, x, rope):
        x = x + self.self_attn(self.input_layernorm(x), rope)
        return x + self.mlp(self.post_attention_layernorm(x))


class DecoderStage(nn.Module):
    """Blocks [first, last) of the decoder, with the token embedding on the first stage and the final norm and LM
    head on the last. A one-stage plan holds the whole model."""

    _no_split_modules = ["Block"]  # what FSDP wraps apart (accelerate's TRANSFORMER_BASED_WRAP reads it)

    def __init__(self, cfg, first, last, embed, head):
        super().__init__()
        self.cfg = cfg
        h, vocab = cfg["hidden_size"], cfg["vocab_size"]
        self.embed_tokens = nn.Embedding(vocab, h) if embed else None
        learned = embed and cfg["position"] == "learned"
        self.embed_positions = nn.Embedding(cfg["max_position_embeddings"], h) if learned else None
        self.layers = nn.ModuleList(Block(cfg) for _ in range(first, last))
        self.norm = make_norm(cfg) if head else None
        self.lm_head = nn.Linear(h, vocab, bias=False) if head else None
        if embed and head and cfg["tie_word_embeddings"]:
            self.lm_head.weight = self.embed_tokens.weight

    def forward(self, x):
        if self.embed_tokens is not None:
            positions = torch.arange(x.shape[1], device=x.device)
            x = self.embed_tokens(x)
            if self.embed_positions is not None:
                x = x + self.embed_positions(positions)
        rope = None
        if self.cfg["position"] == "rope":
            rope = rope_tables(x.shape[1], self.cfg["head_dim"], self.cfg["rope_theta"], x.device)
        for layer in self.layers:
            if RECOMPUTE and self.training:
                x = torch.utils.checkpoint.checkpoint(layer, x, rope, use_reentrant=False)
            else:
                x = layer(x, rope)
        if self.lm_head is not None:
            x = self.lm_head(self.norm(x))
        return x


def loss_fn(logits, targets):
    return F.cross_entropy(logits.float().flatten(0, 1), targets.flatten())
`;
