// SPDX-License-Identifier: GPL-3.0-or-later
// Small GGUF models written as sparse files: the header llama.cpp reads (gguf.cpp, version 3),
// the tensors it expects for each architecture (src/models/<arch>.cpp, load_arch_tensors), and
// data that is never written (zeros, a hole in the file). Enough to create contexts and read the
// buffers llama.cpp sizes; nothing here is evaluated.
import fs from "node:fs";

const ALIGN = 32;
// ggml types: id, elements per block, bytes per block (ggml/src/ggml.c type_traits)
export const TYPES = {
  F32: [0, 1, 4],
  F16: [1, 1, 2],
  Q4_0: [2, 32, 18],
  Q8_0: [8, 32, 34],
};
// llama_ftype of an all-F16/Q8_0/Q4_0 file (include/llama.h)
const FTYPE = { F16: 1, Q4_0: 2, Q8_0: 7 };

const GGUF_UINT32 = 4, GGUF_FLOAT32 = 6, GGUF_BOOL = 7, GGUF_STRING = 8, GGUF_ARRAY = 9;

class Writer {
  constructor () { this.parts = []; this.length = 0; }
  push (buf) { this.parts.push(buf); this.length += buf.length; }
  u32 (v) { const b = Buffer.alloc(4); b.writeUInt32LE(v); this.push(b); }
  i32 (v) { const b = Buffer.alloc(4); b.writeInt32LE(v); this.push(b); }
  u64 (v) { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(v)); this.push(b); }
  f32 (v) { const b = Buffer.alloc(4); b.writeFloatLE(v); this.push(b); }
  str (s) { const b = Buffer.from(s, "utf8"); this.u64(b.length); this.push(b); }
  value (v) {
    if (typeof v === "string") { this.u32(GGUF_STRING); this.str(v); }
    else if (typeof v === "boolean") { this.u32(GGUF_BOOL); this.push(Buffer.from([v ? 1 : 0])); }
    else if (Array.isArray(v)) {
      this.u32(GGUF_ARRAY);
      if (typeof v[0] === "string") { this.u32(GGUF_STRING); this.u64(v.length); v.forEach((s) => this.str(s)); }
      else if (v.kind === "f32") { this.u32(GGUF_FLOAT32); this.u64(v.length); v.forEach((x) => this.f32(x)); }
      else { this.u32(GGUF_UINT32 + 1); this.u64(v.length); v.forEach((x) => this.i32(x)); }
    }
    else if (typeof v === "object" && v.f32 !== undefined) { this.u32(GGUF_FLOAT32); this.f32(v.f32); }
    else { this.u32(GGUF_UINT32); this.u32(v); }
  }
}

function vocabulary (n) {
  const tokens = ["<unk>", "<s>", "</s>"];
  const types = [2, 3, 3];
  for (let i = 0; i < 256; i++) {
    tokens.push(`<0x${i.toString(16).toUpperCase().padStart(2, "0")}>`);
    types.push(6);
  }
  while (tokens.length < n) {
    tokens.push(`\u2581t${tokens.length}`);
    types.push(1);
  }
  const scores = tokens.map((_, i) => -i);
  scores.kind = "f32";
  return { tokens, types, scores };
}

// The tensors of one model: [name, dims (ggml order, innermost first), quantizable]
function tensors (m) {
  const hd = m.head_dim, E = m.n_embd, F = m.n_ff, V = m.n_vocab;
  const list = [["token_embd.weight", [E, V], true], ["output_norm.weight", [E], false]];
  if (!m.tied)
    list.push(["output.weight", [E, V], true]);
  for (let i = 0; i < m.n_layer; i++) {
    const b = `blk.${i}.`;
    list.push([b + "attn_norm.weight", [E], false]);
    list.push([b + "attn_q.weight", [E, m.n_head * hd], true]);
    list.push([b + "attn_k.weight", [E, m.n_head_kv * hd], true]);
    list.push([b + "attn_v.weight", [E, m.n_head_kv * hd], true]);
    if (m.qkv_bias) {
      list.push([b + "attn_q.bias", [m.n_head * hd], false]);
      list.push([b + "attn_k.bias", [m.n_head_kv * hd], false]);
      list.push([b + "attn_v.bias", [m.n_head_kv * hd], false]);
    }
    list.push([b + "attn_output.weight", [m.n_head * hd, E], true]);
    if (m.arch === "gemma2")
      list.push([b + "post_attention_norm.weight", [E], false]);
    list.push([b + "ffn_norm.weight", [E], false]);
    if (m.n_expert) {
      list.push([b + "ffn_gate_inp.weight", [E, m.n_expert], false]);
      list.push([b + "ffn_gate_exps.weight", [E, F, m.n_expert], true]);
      list.push([b + "ffn_down_exps.weight", [F, E, m.n_expert], true]);
      list.push([b + "ffn_up_exps.weight", [E, F, m.n_expert], true]);
    } else {
      list.push([b + "ffn_gate.weight", [E, F], true]);
      list.push([b + "ffn_up.weight", [E, F], true]);
      list.push([b + "ffn_down.weight", [F, E], true]);
    }
    if (m.arch === "gemma2")
      list.push([b + "post_ffw_norm.weight", [E], false]);
  }
  return list;
}

export function tensorBytes (dims, type) {
  const [, block, size] = TYPES[type];
  const n = dims.reduce((a, b) => a * b, 1);
  return (n / block) * size;
}

// Writes `m` to `path` with its 2-D and 3-D weights at `type` (F16, Q8_0, Q4_0; norms, biases
// and the router stay F32, as llama.cpp's converter keeps them). Returns the tensors' bytes.
export function writeModel (path, m, type) {
  const a = m.arch;
  const kv = [
    ["general.architecture", a],
    ["general.name", m.name],
    ["general.alignment", ALIGN],
    ["general.file_type", FTYPE[type]],
    [`${a}.context_length`, m.n_ctx_train],
    [`${a}.embedding_length`, m.n_embd],
    [`${a}.block_count`, m.n_layer],
    [`${a}.feed_forward_length`, m.n_ff],
    [`${a}.attention.head_count`, m.n_head],
    [`${a}.attention.head_count_kv`, m.n_head_kv],
    [`${a}.attention.key_length`, m.head_dim],
    [`${a}.attention.value_length`, m.head_dim],
    [`${a}.attention.layer_norm_rms_epsilon`, { f32: 1e-6 }],
    [`${a}.rope.freq_base`, { f32: 10000 }],
    [`${a}.vocab_size`, m.n_vocab],
  ];
  if (m.n_expert) {
    kv.push([`${a}.expert_count`, m.n_expert]);
    kv.push([`${a}.expert_used_count`, m.n_expert_used]);
  }
  if (m.n_swa) {
    kv.push([`${a}.attention.sliding_window`, m.n_swa]);
  }
  const voc = vocabulary(m.n_vocab);
  kv.push(["tokenizer.ggml.model", "llama"]);
  kv.push(["tokenizer.ggml.tokens", voc.tokens]);
  kv.push(["tokenizer.ggml.scores", voc.scores]);
  kv.push(["tokenizer.ggml.token_type", voc.types]);
  kv.push(["tokenizer.ggml.bos_token_id", 1]);
  kv.push(["tokenizer.ggml.eos_token_id", 2]);

  const list = tensors(m);
  const w = new Writer();
  w.push(Buffer.from("GGUF"));
  w.u32(3);
  w.u64(list.length);
  w.u64(kv.length);
  for (const [k, v] of kv) {
    w.str(k);
    w.value(v);
  }
  let offset = 0, bytes = 0;
  for (const [name, dims, quant] of list) {
    const t = quant ? type : "F32";
    w.str(name);
    w.u32(dims.length);
    dims.forEach((d) => w.u64(d));
    w.u32(TYPES[t][0]);
    w.u64(offset);
    const n = tensorBytes(dims, t);
    bytes += n;
    offset += Math.ceil(n / ALIGN) * ALIGN;
  }
  const header = Buffer.concat(w.parts);
  const dataStart = Math.ceil(header.length / ALIGN) * ALIGN;
  const fd = fs.openSync(path, "w");
  fs.writeSync(fd, header);
  fs.ftruncateSync(fd, dataStart + offset);
  fs.closeSync(fd);
  return bytes;
}

// The models of the suite: dense with grouped-query attention, attention biases (qwen2), a
// sliding window on every other layer (gemma2) and a mixture of experts (llama with experts).
export const MODELS = [
  { name: "dense-gqa", arch: "llama", n_embd: 512, n_head: 8, n_head_kv: 2, head_dim: 128,
    n_ff: 1536, n_layer: 4, n_vocab: 8192, n_ctx_train: 32768, tied: false },
  { name: "bias", arch: "qwen2", n_embd: 256, n_head: 4, n_head_kv: 4, head_dim: 64,
    n_ff: 768, n_layer: 3, n_vocab: 4096, n_ctx_train: 32768, qkv_bias: true, tied: true },
  { name: "swa", arch: "gemma2", n_embd: 256, n_head: 4, n_head_kv: 2, head_dim: 64,
    n_ff: 768, n_layer: 4, n_vocab: 4096, n_ctx_train: 32768, n_swa: 1024, tied: true },
  { name: "moe", arch: "llama", n_embd: 256, n_head: 4, n_head_kv: 2, head_dim: 64,
    n_ff: 256, n_layer: 2, n_vocab: 4096, n_ctx_train: 32768, n_expert: 8, n_expert_used: 2,
    tied: false },
];
