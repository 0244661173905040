#include "kerchunk/pack/pack.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>

#include "generator.h"
#include "generator_builder.h"
#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/util/checked_math.h"
#include "kerchunk/util/file_io.h"

namespace kerchunk::pack {
namespace {

using internal::GeneratorColumns;
using internal::GroupVariable;

bool IsRange(const ArrayRefs& a, size_t row) {
  return a.urls()[row] <= ArrayRefs::kMaxUrlId && a.lengths()[row] != ArrayRefs::kWholeFileLength;
}

// Whether the key/value pairs of this array's chunks come back as chunks of this array when
// the embedded document is read again: its .zarray must be there and describe the same grid.
bool HasMatchingZarray(const ReferenceSet& refs, const ArrayRefs& a) {
  std::string key = a.path().empty() ? ".zarray" : a.path() + "/.zarray";
  const Entry* e = refs.FindEntry(key);
  if (!e ||
      (e->value.kind != EntryValue::Kind::kText && e->value.kind != EntryValue::Kind::kJson)) {
    return false;
  }
  auto grid = ChunkGrid::FromZarray(e->value.data);
  return grid.ok() && grid->counts() == a.grid().counts() &&
         grid->separator() == a.grid().separator();
}

// Groups of arrays (indexes into refs.arrays) that can share a generator: the same chunk counts
// once dimensions of one chunk are dropped (so the same linear chunk indexes), and variables x
// chunks within 2^64 (else each array alone).
std::vector<std::vector<size_t>> GroupArrays(const ReferenceSet& refs) {
  std::map<std::vector<uint64_t>, std::vector<size_t>> by_grid;
  std::vector<std::vector<uint64_t>> order;  // first-seen order, for a deterministic output
  for (size_t i = 0; i < refs.arrays.size(); ++i) {
    const ArrayRefs& a = refs.arrays[i];
    bool any = false;
    for (size_t r = 0; r < a.size() && !any; ++r) any = IsRange(a, r);
    if (!any || !HasMatchingZarray(refs, a)) continue;
    std::vector<uint64_t> key = internal::SqueezedCounts(a.grid().counts());
    auto& members = by_grid[key];
    if (members.empty()) order.push_back(key);
    members.push_back(i);
  }
  std::vector<std::vector<size_t>> groups;
  for (const auto& counts : order) {
    auto& members = by_grid[counts];
    uint64_t chunks = refs.arrays[members[0]].grid().num_chunks();
    if (CheckedMul(chunks, members.size())) {
      groups.push_back(members);
    } else {
      for (size_t m : members) groups.push_back({m});
    }
  }
  return groups;
}

// Whether the chunk references of `vars` as plain Kerchunk entries take at least `limit` bytes
// of JSON (counted until the limit is reached: each reference takes at least 10 bytes).
bool VerbatimAtLeast(const ReferenceSet& refs, std::span<const GroupVariable> vars,
                     uint64_t limit) {
  uint64_t bytes = 0;
  for (const auto& v : vars) {
    const ArrayRefs& a = *v.array;
    uint64_t prefix = a.KeyPrefix().size() + 8;  // quotes, colon, brackets, commas, newline
    for (uint64_t row : v.rows) {
      if (bytes >= limit) return true;
      bytes += prefix + a.grid().Key(a.chunk_index(row)).size() + refs.urls[a.urls()[row]].size() +
               fmt::formatted_size("{}{}", a.offsets()[row], a.lengths()[row]) + 4;
    }
  }
  return bytes >= limit;
}

std::string OrderName(const GeneratorColumns& g) {
  uint64_t chunks = 1;
  for (uint64_t c : g.chunk_grid) chunks *= c;
  if (g.variables.size() == 1) return "single variable";
  if (g.interleave == 1) return "chunk-major";
  if (g.interleave >= chunks) return "variable-major";
  return fmt::format("interleave {}", g.interleave);
}

GeneratorSummary Summarize(const GeneratorColumns& g) {
  GeneratorSummary s;
  s.variables = g.variables;
  s.chunk_grid = g.chunk_grid;
  s.references = g.references;
  s.order = OrderName(g);
  s.predictor = g.lengths.plain ? "plain" : std::string(PredictorName(g.lengths.predictor));
  s.slots = g.stats.slots;
  s.skipped = g.stats.skipped;
  s.unique = g.stats.unique;
  s.modal_length = g.stats.modal_length;
  s.gaps = g.stats.gaps;
  s.file_switches = g.stats.file_switches;
  s.gfactor = g.stats.gfactor;
  return s;
}

// The embedded document: every key not held by a generator, with URL ids of its own.
ReferenceSet VerbatimSet(const ReferenceSet& refs, const std::vector<bool>& generated) {
  ReferenceSet base;
  for (const Entry& e : refs.entries) {
    Entry copy = e;
    if (e.value.kind == EntryValue::Kind::kRange || e.value.kind == EntryValue::Kind::kWholeFile) {
      copy.value.url = base.urls.Intern(refs.urls[e.value.url]);
    }
    base.entries.push_back(std::move(copy));
  }
  for (size_t i = 0; i < refs.arrays.size(); ++i) {
    const ArrayRefs& a = refs.arrays[i];
    ArrayRefs& out = base.AddArray(a.path(), a.grid());
    for (size_t r = 0; r < a.size(); ++r) {
      if (generated[i] && IsRange(a, r)) continue;
      ChunkRef c = a.Get(r);
      if (c.kind != RefKind::kInline) c.url = base.urls.Intern(refs.urls[c.url]);
      out.Add(a.chunk_index(r), c);
    }
  }
  return base;
}

std::string SerializeSmallest(const ReferenceSet& base) {
  std::string plain, templated;
  SerializeKerchunkJson(base, WriteOptions{.templates = false}, plain);
  if (base.urls.size() == 0) return plain;
  SerializeKerchunkJson(base, WriteOptions{.templates = true}, templated);
  return templated.size() < plain.size() ? templated : plain;
}

}  // namespace

Result<PackedText> Pack(const ReferenceSet& refs, const PackOptions& options) {
  if (options.checkpoint_interval == 0 || options.checkpoint_interval > 65536) {
    return InvalidArgumentError("checkpoint interval must be in 1..65536, got {}",
                                options.checkpoint_interval);
  }
  for (const ArrayRefs& a : refs.arrays) {
    if (std::adjacent_find(a.chunks().begin(), a.chunks().end(), std::greater_equal<>()) !=
        a.chunks().end()) {
      return InvalidArgumentError(
          "array \"{}\": chunks are not in increasing order (finalize the reference set)",
          a.path());
    }
  }
  PackedText out;
  PackSummary& summary = out.summary;
  summary.checksum = DigestReferences(refs);
  summary.keys = summary.checksum.keys;
  summary.chunk_references = refs.ChunkCount();

  internal::PackedContents contents;
  contents.checksum = summary.checksum;
  std::vector<bool> generated(refs.arrays.size(), false);
  std::vector<uint32_t> identity(refs.urls.size());
  for (uint32_t i = 0; i < identity.size(); ++i) identity[i] = i;
  const internal::BuildOptions build{options.checkpoint_interval, options.readable};
  for (const auto& group : GroupArrays(refs)) {
    std::vector<GroupVariable> vars;
    for (size_t i : group) {
      GroupVariable v{&refs.arrays[i], {}};
      for (size_t r = 0; r < v.array->size(); ++r) {
        if (IsRange(*v.array, r)) v.rows.push_back(r);
      }
      vars.push_back(std::move(v));
    }
    KERCHUNK_ASSIGN_OR_RETURN(
        GeneratorColumns g,
        internal::BuildGenerator(vars,
                                 internal::SqueezedCounts(refs.arrays[group[0]].grid().counts()),
                                 identity, build));
    // A generator has a fixed cost of a few hundred bytes: a handful of references is smaller
    // as plain Kerchunk entries.
    internal::PackedContents alone;
    alone.generators.push_back(g);
    if (!VerbatimAtLeast(refs, vars, internal::SerializePacked(alone, options.readable).size())) {
      continue;
    }
    for (size_t i : group) generated[i] = true;
    summary.generated += g.references;
    contents.generators.push_back(std::move(g));
  }

  // The URL list holds only the URLs generators use, numbered in order of first use.
  std::vector<uint32_t> remap(refs.urls.size(), UINT32_MAX);
  for (GeneratorColumns& g : contents.generators) {
    for (uint64_t& url : g.file_url) {
      if (remap[url] == UINT32_MAX) {
        remap[url] = static_cast<uint32_t>(contents.urls.size());
        contents.urls.push_back(refs.urls[static_cast<uint32_t>(url)]);
      }
      url = remap[url];
    }
    summary.generators.push_back(Summarize(g));
  }
  summary.verbatim = summary.keys - summary.generated;
  contents.kerchunk_json = SerializeSmallest(VerbatimSet(refs, generated));
  out.text = internal::SerializePacked(contents, options.readable);
  return out;
}

Result<PackSummary> PackFile(const std::string& input, const std::string& output,
                             const PackOptions& options) {
  ReferenceSet refs;
  uint64_t input_bytes = 0;
  if (input == "-") {  // a pipe: read it whole (the file reader needs to know the size)
    KERCHUNK_ASSIGN_OR_RETURN(std::string text, ReadFileToString("/dev/stdin"));
    input_bytes = text.size();
    KERCHUNK_ASSIGN_OR_RETURN(refs, ParseKerchunkJson(text).Annotate("standard input"));
  } else {
    KERCHUNK_ASSIGN_OR_RETURN(refs, ReadKerchunkFile(input));
    KERCHUNK_ASSIGN_OR_RETURN(input_bytes, FileSize(input));
  }
  KERCHUNK_ASSIGN_OR_RETURN(PackedText packed, Pack(refs, options));
  KERCHUNK_RETURN_IF_ERROR(WriteFileAtomically(output, packed.text));
  packed.summary.input_bytes = input_bytes;
  packed.summary.output_bytes = packed.text.size();
  return std::move(packed.summary);
}

}  // namespace kerchunk::pack
