#include "kerchunk/pack/packed_index.h"

#include <fmt/format.h>

#include "index_state.h"
#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/refs/source_record.h"
#include "kerchunk/util/file_io.h"
#include "packed_container.h"

namespace kerchunk::pack {

using internal::DecodedRef;
using internal::IndexState;

PackedIndex::PackedIndex(std::unique_ptr<IndexState> state) : state_(std::move(state)) {}
PackedIndex::PackedIndex(PackedIndex&&) noexcept = default;
PackedIndex& PackedIndex::operator=(PackedIndex&&) noexcept = default;
PackedIndex::~PackedIndex() = default;

Result<PackedIndex> PackedIndex::Parse(std::string_view bytes) {
  internal::UnwrappedContainer unwrapped;
  std::string_view text = bytes;
  std::string_view blobs;
  if (internal::IsContainer(bytes)) {
    KERCHUNK_ASSIGN_OR_RETURN(unwrapped, internal::UnwrapContainer(bytes));
    text = unwrapped.text;
    blobs = unwrapped.blobs();
  }
  KERCHUNK_ASSIGN_OR_RETURN(internal::PackedContents contents,
                            internal::ParsePacked(text, unwrapped.binary ? &blobs : nullptr));
  KERCHUNK_ASSIGN_OR_RETURN(std::unique_ptr<IndexState> state,
                            IndexState::Make(std::move(contents)));
  return PackedIndex(std::move(state));
}

Result<PackedIndex> PackedIndex::FromReferences(ReferenceSet refs) {
  KERCHUNK_ASSIGN_OR_RETURN(std::unique_ptr<IndexState> state,
                            IndexState::FromReferences(std::move(refs)));
  return PackedIndex(std::move(state));
}

Result<PackedIndex> PackedIndex::Open(const std::string& path) {
  // Read rather than mapped: the parser copies the text into a padded buffer anyway, and
  // this also reads pipes ("-" is standard input).
  const std::string& source = path == "-" ? "/dev/stdin" : path;
  KERCHUNK_ASSIGN_OR_RETURN(std::string text, ReadFileToString(source));
  return Parse(text).Annotate(path == "-" ? "standard input" : path);
}

std::span<const Entry> PackedIndex::entries() const { return state_->base.entries; }
const ReferenceDigest& PackedIndex::checksum() const { return state_->checksum; }
uint64_t PackedIndex::key_count() const { return state_->checksum.keys; }
size_t PackedIndex::generator_count() const { return state_->generators.size(); }
uint64_t PackedIndex::generated_references() const { return state_->generated; }

Result<std::optional<ResolvedValue>> PackedIndex::Resolve(std::string_view key) const {
  const IndexState& s = *state_;
  if (auto e = s.entry_by_key.find(key); e != s.entry_by_key.end()) {
    const EntryValue& v = s.base.entries[e->second].value;
    ResolvedValue out{v.kind, {}, v.offset, v.length, v.data};
    if (v.kind == EntryValue::Kind::kRange || v.kind == EntryValue::Kind::kWholeFile) {
      out.url = s.base.urls[v.url];
      out.data = {};
    }
    return std::optional(out);
  }
  auto chunk = s.FindChunk(key);
  if (!chunk) return std::optional<ResolvedValue>();
  const ArrayRefs& array = s.base.arrays[chunk->first];
  if (auto row = array.Find(chunk->second)) {
    return std::optional(internal::VerbatimChunk(s.base, array, *row));
  }
  if (const internal::InlineDecoder* values = s.inline_of[chunk->first]) {
    if (auto position = values->Find(chunk->second)) {
      ResolvedValue v;
      v.kind = EntryValue::Kind::kBase64;
      KERCHUNK_ASSIGN_OR_RETURN(v.data, values->Value(*position));
      return std::optional(v);
    }
  }
  const auto& member = s.membership[chunk->first];
  if (!member) return std::optional<ResolvedValue>();
  const internal::GeneratorDecoder& g = s.generators[member->generator];
  auto index = g.IndexOf(member->var, chunk->second);
  if (!index) return std::optional<ResolvedValue>();
  std::optional<ResolvedValue> out;
  Status status = g.Decode(*index, *index + 1, [&](const DecodedRef& r) { out = s.Generated(r); });
  if (!status.ok()) {
    return std::move(status).Annotate("generator {}", member->generator);
  }
  return out;
}

Result<ReferenceSet> PackedIndex::UnpackAll(const UnpackOptions& options) const {
  const IndexState& s = *state_;
  if (s.checksum.keys > options.max_references) {
    return UnsupportedError("the file expands to {} references, more than the limit of {}",
                            s.checksum.keys, options.max_references);
  }
  ReferenceSet out = s.base;
  std::vector<uint32_t> url_ids;
  url_ids.reserve(s.urls.size());
  for (const auto& url : s.urls) url_ids.push_back(out.urls.Intern(url));
  for (size_t gi = 0; gi < s.generators.size(); ++gi) {
    const internal::GeneratorDecoder& g = s.generators[gi];
    std::vector<ArrayRefs*> arrays;
    for (const auto& path : g.columns().variables) {
      arrays.push_back(out.FindArray(path));
      arrays.back()->Reserve(arrays.back()->size() + g.references() / arrays.size() + 1);
    }
    Status status = g.Decode(0, g.references(), [&](const DecodedRef& r) {
      arrays[r.var]->AddRange(r.chunk, url_ids[r.url], r.offset, r.length);
    });
    if (!status.ok()) return std::move(status).Annotate("generator {}", gi);
  }
  for (const auto& values : s.inline_values) {
    ArrayRefs* array = out.FindArray(values->columns().variable);
    for (size_t p = 0; p < values->size(); ++p) {
      KERCHUNK_ASSIGN_OR_RETURN(std::string_view bytes, values->Value(p));
      array->AddInline(values->columns().chunks[p], bytes, true);
    }
  }
  // Arrays holding verbatim chunks as well need sorting; the others are already in order.
  KERCHUNK_RETURN_IF_ERROR(out.Finalize());
  ReferenceDigest digest = DigestReferences(out, s.checksum.version);
  if (digest != s.checksum) {
    return DataLossError("checksum mismatch: the references expand to {} but the file records {}",
                         digest.ToString(), s.checksum.ToString());
  }
  return out;
}

Result<std::optional<std::vector<SourceFileRecord>>> ReadIndexSourceRecord(
    const std::string& path) {
  if (!IsPackedFile(path)) return ReadSourceRecord(path);
  Result<std::string> bytes = ReadFileToString(path);
  if (!bytes.ok()) return bytes.status();
  if (!internal::IsContainer(*bytes)) return ReadSourceRecord(path);
  Result<internal::UnwrappedContainer> unwrapped = internal::UnwrapContainer(*bytes);
  if (!unwrapped.ok()) return std::move(unwrapped).status().Annotate(path);
  return SourceRecordOfPackedText(unwrapped->text, path);
}

Status UnpackFile(const std::string& input, const std::string& output,
                  const UnpackOptions& options) {
  KERCHUNK_ASSIGN_OR_RETURN(PackedIndex index, PackedIndex::Open(input));
  auto refs = index.UnpackAll(options);
  if (!refs.ok()) return std::move(refs).status().Annotate(input);
  // The source record pack copied from scan's output goes back where scan writes it.
  std::optional<std::vector<SourceFileRecord>> sources;
  if (input != "-") {
    KERCHUNK_ASSIGN_OR_RETURN(sources, ReadIndexSourceRecord(input));
  }
  if (!sources) return WriteKerchunkFile(*refs, output);
  std::string text;
  SerializeKerchunkJson(*refs, WriteOptions{}, text);
  PrependSourceRecord(*sources, text);
  return WriteFileAtomically(output, text);
}

}  // namespace kerchunk::pack
