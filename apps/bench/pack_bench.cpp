#include "kerchunk/bench/pack_bench.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <simdjson.h>
#include <zstd.h>

#include <chrono>
#include <ctime>
#include <random>

#include "kerchunk/bench/synthetic_refs.h"
#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/pack/pack.h"
#include "kerchunk/pack/packed_index.h"
#include "kerchunk/refs/digest.h"
#include "pack/packed_container.h"

namespace kerchunk::pack {
namespace {

double ThreadCpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Runs fn `repetitions` times and keeps the fastest run (CPU time) with its wall time.
template <typename Fn>
Status Time(int repetitions, PackBenchTime& best, Fn&& fn) {
  best.cpu_seconds = 1e300;
  for (int r = 0; r < repetitions; ++r) {
    auto wall0 = std::chrono::steady_clock::now();
    double cpu0 = ThreadCpuSeconds();
    KERCHUNK_RETURN_IF_ERROR(fn());
    double cpu = ThreadCpuSeconds() - cpu0;
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    if (cpu < best.cpu_seconds) best = {cpu, wall};
  }
  return OkStatus();
}

struct Lookup {
  std::string key, url;
  uint64_t offset, length;
};

std::vector<Lookup> SampleLookups(const ReferenceSet& refs, uint64_t count) {
  std::vector<Lookup> out;
  std::vector<std::pair<size_t, size_t>> ranges;
  for (size_t a = 0; a < refs.arrays.size(); ++a) {
    const ArrayRefs& array = refs.arrays[a];
    for (size_t i = 0; i < array.size(); ++i) {
      if (array.Get(i).kind == RefKind::kRange) ranges.emplace_back(a, i);
    }
  }
  if (ranges.empty()) return out;
  std::mt19937_64 rng(42);
  for (uint64_t k = 0; k < count; ++k) {
    auto [a, i] = ranges[rng() % ranges.size()];
    const ArrayRefs& array = refs.arrays[a];
    ChunkRef c = array.Get(i);
    out.push_back({array.KeyPrefix() + array.grid().Key(array.chunk_index(i)), refs.urls[c.url],
                   c.offset, c.length});
  }
  return out;
}

// The checks that make the figures mean something: exact expansion, correct lookups.
Status Verify(const ReferenceSet& refs, const PackedIndex& index,
              const std::vector<Lookup>& lookups) {
  KERCHUNK_ASSIGN_OR_RETURN(ReferenceSet expanded, index.UnpackAll());
  if (DigestReferences(expanded) != DigestReferences(refs)) {
    return InternalError("bench: the packed file does not expand to the input");
  }
  for (const Lookup& l : lookups) {
    KERCHUNK_ASSIGN_OR_RETURN(auto v, index.Resolve(l.key));
    if (!v || v->url != l.url || v->offset != l.offset || v->length != l.length) {
      return InternalError("bench: key \"{}\" resolves to a wrong value", l.key);
    }
  }
  return OkStatus();
}

uint64_t CountRanges(const ReferenceSet& refs) {
  uint64_t n = 0;
  for (const ArrayRefs& a : refs.arrays) {
    for (size_t i = 0; i < a.size(); ++i) n += a.Get(i).kind == RefKind::kRange;
  }
  return n;
}

}  // namespace

Result<PackBenchResult> RunPackBench(const ReferenceSet& refs, const PackBenchOptions& o) {
  if (o.repetitions < 1) return InvalidArgumentError("bench: repetitions must be >= 1");
  PackBenchResult r;
  r.keys = refs.entries.size() + refs.ChunkCount();
  r.references = CountRanges(refs);
  r.length_entropy_bits = ChunkLengthEntropyBits(refs);
  std::string json;
  SerializeKerchunkJson(refs, {}, json);
  r.json_bytes = json.size();
  if (o.zstd) {
    std::string compressed(ZSTD_compressBound(json.size()), '\0');
    size_t n = ZSTD_compress(compressed.data(), compressed.size(), json.data(), json.size(), 19);
    if (ZSTD_isError(n)) return InternalError("bench: zstd: {}", ZSTD_getErrorName(n));
    r.zstd_bytes = n;
  }
  const PackOptions pack_options{.checkpoint_interval = o.checkpoint_interval, .binary = true};
  std::string packed;
  // What `kerchunk pack` writes: the packed JSON in its compact container (opened below the
  // same way, decompression included).
  KERCHUNK_RETURN_IF_ERROR(Time(o.repetitions, r.pack, [&]() -> Status {
    KERCHUNK_ASSIGN_OR_RETURN(PackedText p, Pack(refs, pack_options));
    packed = CompactPackedFile(p);
    return OkStatus();
  }));
  r.packed_bytes = packed.size();
  KERCHUNK_ASSIGN_OR_RETURN(PackedIndex index, PackedIndex::Parse(packed));
  std::vector<Lookup> lookups = SampleLookups(refs, o.lookups);
  KERCHUNK_RETURN_IF_ERROR(Verify(refs, index, lookups));

  KERCHUNK_RETURN_IF_ERROR(
      Time(o.repetitions, r.open, [&]() -> Status { return PackedIndex::Parse(packed).status(); }));
  KERCHUNK_RETURN_IF_ERROR(
      Time(o.repetitions, r.unpack, [&]() -> Status { return index.UnpackAll().status(); }));
  KERCHUNK_RETURN_IF_ERROR(Time(o.repetitions, r.json_read,
                                [&]() -> Status { return ParseKerchunkJson(json).status(); }));
  simdjson::dom::parser parser;
  simdjson::padded_string padded(json);
  KERCHUNK_RETURN_IF_ERROR(Time(o.repetitions, r.json_dom, [&]() -> Status {
    simdjson::dom::element doc;
    if (auto err = parser.parse(padded).get(doc)) {
      return InternalError("bench: simdjson: {}", simdjson::error_message(err));
    }
    return OkStatus();
  }));
  PackBenchTime lookup_time;
  Status timed = Time(o.repetitions, lookup_time, [&]() -> Status {
    for (const Lookup& l : lookups) {
      if (auto v = index.Resolve(l.key); !v.ok()) return v.status();
    }
    return OkStatus();
  });
  KERCHUNK_RETURN_IF_ERROR(timed);
  if (!lookups.empty()) lookup_time.cpu_seconds *= 1e9 / static_cast<double>(lookups.size());
  r.lookup_ns = lookups.empty() ? 0 : lookup_time.cpu_seconds;
  return r;
}

void WritePackBench(const PackBenchResult& r, std::ostream& out) {
  const double refs = static_cast<double>(std::max<uint64_t>(1, r.references));
  auto per_ref = [&](uint64_t bytes) { return static_cast<double>(bytes) / refs; };
  auto rate = [&](const PackBenchTime& t) { return refs / t.cpu_seconds / 1e6; };
  fmt::print(out, "{} keys, {} byte-range chunk references\n", r.keys, r.references);
  fmt::print(out,
             "size: Kerchunk JSON {} B ({:.1f} B/ref), zstd -19 {} B ({:.2f} B/ref), "
             "packed {} B ({:.3f} B/ref)\n",
             r.json_bytes, per_ref(r.json_bytes), r.zstd_bytes, per_ref(r.zstd_bytes),
             r.packed_bytes, per_ref(r.packed_bytes));
  fmt::print(
      out, "ratio: {:.1f}x smaller than the JSON, {:.2f}x smaller than zstd -19\n",
      static_cast<double>(r.json_bytes) / static_cast<double>(r.packed_bytes),
      r.zstd_bytes ? static_cast<double>(r.zstd_bytes) / static_cast<double>(r.packed_bytes) : 0.0);
  fmt::print(out, "chunk lengths: {:.2f} bits ({:.2f} B) of zero-order entropy each\n",
             r.length_entropy_bits, r.length_entropy_bits / 8);
  fmt::print(out,
             "pack {:.1f} M refs/s, unpack {:.1f} M refs/s (CPU time; wall {:.3f} / {:.3f} s)\n",
             rate(r.pack), rate(r.unpack), r.pack.wall_seconds, r.unpack.wall_seconds);
  fmt::print(out,
             "open {:.3f} ms vs Kerchunk JSON read {:.3f} ms ({:.0f}x) and simdjson DOM parse "
             "{:.3f} ms ({:.0f}x)\n",
             r.open.cpu_seconds * 1e3, r.json_read.cpu_seconds * 1e3,
             r.json_read.cpu_seconds / r.open.cpu_seconds, r.json_dom.cpu_seconds * 1e3,
             r.json_dom.cpu_seconds / r.open.cpu_seconds);
  fmt::print(out, "lookup {:.0f} ns per key (after open)\n", r.lookup_ns);
}

}  // namespace kerchunk::pack
