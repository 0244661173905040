#include "index_state.h"

#include <fmt/format.h>

#include "kerchunk/json/kerchunk_json.h"

namespace kerchunk::pack::internal {

Result<std::unique_ptr<IndexState>> IndexState::Make(PackedContents contents) {
  auto state = std::make_unique<IndexState>();
  auto base = ParseKerchunkJson(contents.kerchunk_json);
  if (!base.ok()) {
    return DataLossError("the embedded \"kerchunk\" document: {}", base.status().message());
  }
  state->base = std::move(*base);
  state->urls = std::move(contents.urls);
  state->checksum = contents.checksum;
  for (size_t i = 0; i < contents.generators.size(); ++i) {
    GeneratorColumns& columns = contents.generators[i];
    std::string name =
        fmt::format("generator {} ({})", i, columns.variables.empty() ? "" : columns.variables[0]);
    auto decoder = GeneratorDecoder::Make(std::move(columns), state->urls.size());
    if (!decoder.ok()) return std::move(decoder).status().Annotate(name);
    state->generated += decoder->references();
    state->generators.push_back(std::move(*decoder));
  }
  for (size_t i = 0; i < contents.inline_values.size(); ++i) {
    InlineColumns& columns = contents.inline_values[i];
    std::string name = fmt::format("inline values {} ({})", i, columns.variable);
    auto decoder = InlineDecoder::Make(std::move(columns));
    if (!decoder.ok()) return std::move(decoder).status().Annotate(name);
    state->inlined += (*decoder)->size();
    state->inline_values.push_back(std::move(*decoder));
  }
  KERCHUNK_RETURN_IF_ERROR(state->IndexGenerators());
  KERCHUNK_RETURN_IF_ERROR(state->IndexInlineValues());
  uint64_t keys =
      state->base.entries.size() + state->base.ChunkCount() + state->generated + state->inlined;
  if (keys != state->checksum.keys) {
    return DataLossError("the checksum counts {} keys, but the file holds {}", state->checksum.keys,
                         keys);
  }
  return state;
}

Result<std::unique_ptr<IndexState>> IndexState::FromReferences(ReferenceSet refs) {
  auto state = std::make_unique<IndexState>();
  state->base = std::move(refs);
  state->checksum = DigestReferences(state->base);
  KERCHUNK_RETURN_IF_ERROR(state->IndexGenerators());
  KERCHUNK_RETURN_IF_ERROR(state->IndexInlineValues());
  return state;
}

Status IndexState::IndexGenerators() {
  for (size_t i = 0; i < base.arrays.size(); ++i) array_by_path.emplace(base.arrays[i].path(), i);
  for (size_t i = 0; i < base.entries.size(); ++i) entry_by_key.emplace(base.entries[i].key, i);
  membership.assign(base.arrays.size(), std::nullopt);
  for (size_t g = 0; g < generators.size(); ++g) {
    const GeneratorColumns& c = generators[g].columns();
    for (uint64_t v = 0; v < c.variables.size(); ++v) {
      const std::string& path = c.variables[v];
      auto it = array_by_path.find(path);
      if (it == array_by_path.end()) {
        return DataLossError("generator {}: variable \"{}\" has no .zarray in the document", g,
                             path);
      }
      const ArrayRefs& a = base.arrays[it->second];
      if (SqueezedCounts(a.grid().counts()) != c.chunk_grid) {
        return DataLossError("generator {}: the chunk grid of \"{}\" does not match its .zarray", g,
                             path);
      }
      if (membership[it->second]) {
        return DataLossError("generator {}: variable \"{}\" appears in more than one place", g,
                             path);
      }
      membership[it->second] = Membership{g, v};
      for (size_t r = 0; r < a.size(); ++r) {
        if (generators[g].IndexOf(v, a.chunk_index(r))) {
          return DataLossError("key \"{}{}\" is both in the document and in generator {}",
                               a.KeyPrefix(), a.grid().Key(a.chunk_index(r)), g);
        }
      }
    }
  }
  return OkStatus();
}

Status IndexState::IndexInlineValues() {
  inline_of.assign(base.arrays.size(), nullptr);
  for (size_t i = 0; i < inline_values.size(); ++i) {
    const InlineDecoder& d = *inline_values[i];
    const std::string& path = d.columns().variable;
    auto it = array_by_path.find(path);
    if (it == array_by_path.end()) {
      return DataLossError("inline values {}: variable \"{}\" has no .zarray in the document", i,
                           path);
    }
    if (inline_of[it->second]) {
      return DataLossError("inline values {}: variable \"{}\" has inline values twice", i, path);
    }
    inline_of[it->second] = &d;
    const ArrayRefs& a = base.arrays[it->second];
    if (d.size() > 0 && d.columns().chunks.back() >= a.grid().num_chunks()) {
      return DataLossError("inline values {}: chunk {} is outside the grid of \"{}\"", i,
                           d.columns().chunks.back(), path);
    }
    // A key comes from one place only.
    for (size_t r = 0; r < a.size(); ++r) {
      if (d.Find(a.chunk_index(r))) {
        return DataLossError("key \"{}{}\" is both in the document and in inline values {}",
                             a.KeyPrefix(), a.grid().Key(a.chunk_index(r)), i);
      }
    }
    if (const auto& member = membership[it->second]) {
      for (uint64_t chunk : d.columns().chunks) {
        if (generators[member->generator].IndexOf(member->var, chunk)) {
          return DataLossError("key \"{}{}\" is both in inline values {} and in generator {}",
                               a.KeyPrefix(), a.grid().Key(chunk), i, member->generator);
        }
      }
    }
  }
  return OkStatus();
}

std::optional<std::pair<size_t, uint64_t>> IndexState::FindChunk(std::string_view key) const {
  if (array_by_path.empty()) return std::nullopt;
  for (size_t slash = key.rfind('/');; slash = key.rfind('/', slash - 1)) {
    std::string_view path = slash == std::string_view::npos ? "" : key.substr(0, slash);
    std::string_view suffix = slash == std::string_view::npos ? key : key.substr(slash + 1);
    auto it = array_by_path.find(std::string(path));
    if (it != array_by_path.end()) {
      if (auto chunk = base.arrays[it->second].grid().ParseKey(suffix)) {
        return std::make_pair(it->second, *chunk);
      }
    }
    if (slash == std::string_view::npos || slash == 0) break;
  }
  auto root = array_by_path.find("");
  if (root != array_by_path.end() && key.find('/') != std::string_view::npos) {
    if (auto chunk = base.arrays[root->second].grid().ParseKey(key)) {
      return std::make_pair(root->second, *chunk);
    }
  }
  return std::nullopt;
}

ResolvedValue VerbatimChunk(const ReferenceSet& base, const ArrayRefs& array, size_t row) {
  ChunkRef c = array.Get(row);
  ResolvedValue v;
  switch (c.kind) {
    case RefKind::kInline:
      v.kind = c.base64 ? EntryValue::Kind::kBase64 : EntryValue::Kind::kText;
      v.data = c.data;
      break;
    case RefKind::kWholeFile:
      v.kind = EntryValue::Kind::kWholeFile;
      v.url = base.urls[c.url];
      break;
    case RefKind::kRange:
      v.kind = EntryValue::Kind::kRange;
      v.url = base.urls[c.url];
      v.offset = c.offset;
      v.length = c.length;
      break;
  }
  return v;
}

}  // namespace kerchunk::pack::internal
