#include "kerchunk/pack/pack.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <functional>
#include <map>

#include "generator.h"
#include "generator_builder.h"
#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/refs/source_record.h"
#include "kerchunk/util/checked_math.h"
#include "kerchunk/util/file_io.h"
#include "packed_container.h"

namespace kerchunk::pack {
namespace {

using internal::GeneratorColumns;

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

// Whether the chunk references of the group's arrays as plain Kerchunk entries take at least
// `limit` bytes of JSON (counted until the limit is reached: each reference takes at least 10
// bytes). A URL is counted as at most a template reference ("{{u1f}}"): the embedded document
// is written with templates when that is smaller, so a handful of references to long URLs costs
// little there.
bool VerbatimAtLeast(const ReferenceSet& refs, const std::vector<size_t>& group, uint64_t limit) {
  constexpr uint64_t kTemplateReference = 8;
  uint64_t bytes = 0;
  for (size_t i : group) {
    const ArrayRefs& a = refs.arrays[i];
    uint64_t prefix = a.KeyPrefix().size() + 8;  // quotes, colon, brackets, commas, newline
    for (size_t row = 0; row < a.size(); ++row) {
      if (bytes >= limit) return true;
      if (!IsRange(a, row)) continue;
      bytes += prefix + a.grid().Key(a.chunk_index(row)).size() +
               std::min<uint64_t>(refs.urls[a.urls()[row]].size(), kTemplateReference) +
               fmt::formatted_size("{}{}", a.offsets()[row], a.lengths()[row]) + 4;
    }
  }
  return bytes >= limit;
}

// The byte-range references of an array that also holds inline or whole-file chunks, copied out
// (arrays of byte ranges only are read in place).
struct RangeColumns {
  std::vector<uint64_t> chunks, offsets, lengths;
  std::vector<uint32_t> urls;
};

internal::GroupVariable RangesOf(const ArrayRefs& a, std::deque<RangeColumns>& storage) {
  internal::GroupVariable v{a.path(), a.chunks(), a.offsets(), a.lengths(), a.urls()};
  size_t ranges = 0;
  for (size_t r = 0; r < a.size(); ++r) ranges += IsRange(a, r);
  if (ranges == a.size()) return v;
  RangeColumns& c = storage.emplace_back();
  c.chunks.reserve(ranges);
  c.offsets.reserve(ranges);
  c.lengths.reserve(ranges);
  c.urls.reserve(ranges);
  for (size_t r = 0; r < a.size(); ++r) {
    if (!IsRange(a, r)) continue;
    c.chunks.push_back(a.chunks()[r]);
    c.offsets.push_back(a.offsets()[r]);
    c.lengths.push_back(a.lengths()[r]);
    c.urls.push_back(a.urls()[r]);
  }
  v.chunks = c.chunks;
  v.offsets = c.offsets;
  v.lengths = c.lengths;
  v.urls = c.urls;
  return v;
}

// The packed file's URL list: the URLs generators use, numbered in order of first use. A
// generator that turns out not to pay for itself gives its new URLs back.
class PackedUrls {
 public:
  explicit PackedUrls(const UrlTable& refs_urls)
      : refs_urls_(refs_urls), packed_id_(refs_urls.size(), UINT32_MAX) {}

  /// Renumbers files.url of `g` from reference-set ids to packed ids.
  void Renumber(internal::GeneratorColumns& g) {
    mark_ = urls_.size();
    for (uint64_t& url : g.file_url) {
      uint32_t& id = packed_id_[url];
      if (id == UINT32_MAX) {
        id = static_cast<uint32_t>(urls_.size());
        urls_.push_back(refs_urls_[static_cast<uint32_t>(url)]);
        origin_.push_back(static_cast<uint32_t>(url));
      }
      url = id;
    }
  }
  /// Forgets the URLs the last Renumber added.
  void Undo() {
    for (size_t i = mark_; i < urls_.size(); ++i) packed_id_[origin_[i]] = UINT32_MAX;
    urls_.resize(mark_);
    origin_.resize(mark_);
  }
  const std::vector<std::string>& urls() const { return urls_; }

 private:
  const UrlTable& refs_urls_;
  std::vector<uint32_t> packed_id_;  // per reference-set URL id
  std::vector<std::string> urls_;
  std::vector<uint32_t> origin_;  // reference-set id of each packed URL
  size_t mark_ = 0;
};

// Room for the packed text: generously above what packed files take (~2-3.2 bytes a reference,
// ~6 readable) plus the metadata. Only what is written is ever touched.
size_t ExpectedPackedBytes(const ReferenceSet& refs, bool readable) {
  size_t bytes = 4096 + refs.ChunkCount() * (readable ? 12 : 5);
  for (const Entry& e : refs.entries) bytes += 2 * (e.key.size() + e.value.data.size()) + 32;
  for (const auto& url : refs.urls.urls()) bytes += url.size() + 4;
  return bytes;
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

// Bytes the inline chunks of `a` take as verbatim entries ("key":"base64:...", or text).
uint64_t VerbatimInlineBytes(const ArrayRefs& a) {
  uint64_t bytes = 0;
  for (size_t r = 0; r < a.size(); ++r) {
    const ChunkRef c = a.Get(r);
    if (c.kind != RefKind::kInline) continue;
    bytes += a.KeyPrefix().size() + a.grid().Key(a.chunk_index(r)).size() + 6 +
             (c.base64 ? 7 + (c.data.size() + 2) / 3 * 4 : c.data.size());
  }
  return bytes;
}

bool HasTextValues(const ArrayRefs& a) {
  for (size_t r = 0; r < a.size(); ++r) {
    const ChunkRef c = a.Get(r);
    if (c.kind == RefKind::kInline && !c.base64) return true;
  }
  return false;
}

// The arrays whose inline chunks go to the "inline" section: those with a matching .zarray and
// only "base64:" values, whose values take fewer bytes there than as verbatim entries (a
// handful of small values is smaller verbatim). `moved` marks them.
std::vector<internal::InlineColumns> InlineSection(const ReferenceSet& refs, bool readable,
                                                   std::vector<bool>& moved) {
  std::vector<internal::InlineColumns> out;
  for (size_t i = 0; i < refs.arrays.size(); ++i) {
    const ArrayRefs& a = refs.arrays[i];
    const uint64_t verbatim = VerbatimInlineBytes(a);
    if (verbatim == 0 || !HasMatchingZarray(refs, a)) continue;
    // Text values (JSON-encoded records, strings) stay text: the container's compressor sees
    // them as they are, and --readable shows them.
    if (HasTextValues(a)) continue;
    internal::InlineColumns c = internal::BuildInlineColumns(a);
    std::string text;
    internal::AppendInline(text, c, readable);
    if (text.size() + 2 >= verbatim) continue;
    // Decided on the values as they are: stored inflated they may take more bytes before the
    // container's compressor, and fewer after it.
    internal::StoreInflatedWhenSmaller(c);
    moved[i] = true;
    out.push_back(std::move(c));
  }
  return out;
}

// The embedded document: every key not held by a generator or the inline section, with URL ids
// of its own.
ReferenceSet VerbatimSet(const ReferenceSet& refs, const std::vector<bool>& generated,
                         const std::vector<bool>& inlined) {
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
      if (inlined[i] && c.kind == RefKind::kInline) continue;
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

  std::vector<bool> generated(refs.arrays.size(), false);
  const internal::BuildOptions build{options.checkpoint_interval, options.readable};
  PackedUrls urls(refs.urls);
  const bool binary = options.binary && !options.readable;
  const internal::ByteFields bytes =
      binary ? internal::ByteFields(&out.blobs) : internal::ByteFields();
  internal::PackedTextWriter writer(options.readable, ExpectedPackedBytes(refs, options.readable),
                                    bytes);
  for (const auto& group : GroupArrays(refs)) {
    std::deque<RangeColumns> storage;
    std::vector<internal::GroupVariable> vars;
    for (size_t i : group) vars.push_back(RangesOf(refs.arrays[i], storage));
    const ChunkGrid& grid = refs.arrays[group[0]].grid();
    KERCHUNK_ASSIGN_OR_RETURN(
        GeneratorColumns g,
        internal::BuildGenerator(vars, grid.num_chunks(), internal::SqueezedCounts(grid.counts()),
                                 build));
    urls.Renumber(g);
    writer.Add(g);
    // A generator has a fixed cost of a few hundred bytes: a handful of references is smaller
    // as plain Kerchunk entries. The URL strings are left out on both sides: either form must
    // list them once (here in "urls", there as templates), and which group lists them first
    // does not matter.
    if (!VerbatimAtLeast(refs, group, writer.last_size())) {
      writer.TakeBackLast();
      urls.Undo();
      continue;
    }
    for (size_t i : group) generated[i] = true;
    summary.generated += g.references;
    summary.generators.push_back(Summarize(g));
    summary.generators.back().bytes = writer.last_size();
  }
  std::vector<bool> inlined(refs.arrays.size(), false);
  const std::vector<internal::InlineColumns> inline_values =
      InlineSection(refs, options.readable, inlined);
  std::string inline_text;
  for (const internal::InlineColumns& c : inline_values) {
    if (!inline_text.empty()) inline_text += ",\n";
    const size_t blobs_before = out.blobs.size();
    internal::AppendInline(inline_text, c, options.readable, bytes);
    summary.inline_values += c.chunks.size();
    summary.inline_distinct += c.lengths.size();
    summary.inline_inflated += static_cast<uint64_t>(
        std::count_if(c.deflate.begin(), c.deflate.end(), [](uint64_t l) { return l != 0; }));
    summary.inline_bytes += out.blobs.size() - blobs_before;
  }
  summary.inline_bytes += inline_text.size();
  summary.verbatim = summary.keys - summary.generated - summary.inline_values;
  const std::string verbatim = SerializeSmallest(VerbatimSet(refs, generated, inlined));
  const std::string document = internal::EmbeddedDocumentMember(verbatim);
  summary.verbatim_bytes = document.size();
  const uint64_t version = internal::FormatVersionFor(inline_values);
  out.text = writer.Finish(summary.checksum, document, urls.urls(), inline_text, version);
  return out;
}

std::string CompactPackedFile(std::string_view packed_json) {
  return internal::WrapContainer(packed_json);
}

std::string CompactPackedFile(const PackedText& packed) {
  return internal::WrapBinaryContainer(packed.text, packed.blobs);
}

}  // namespace kerchunk::pack
