#include "kerchunk/refs/reference_set.h"

#include <algorithm>
#include <numeric>

namespace kerchunk {

uint32_t UrlTable::Intern(std::string_view url) {
  auto it = ids_.find(std::string(url));
  if (it != ids_.end()) return it->second;
  auto id = static_cast<uint32_t>(urls_.size());
  urls_.emplace_back(url);
  ids_.emplace(urls_.back(), id);
  return id;
}

std::optional<uint32_t> UrlTable::Find(std::string_view url) const {
  auto it = ids_.find(std::string(url));
  if (it == ids_.end()) return std::nullopt;
  return it->second;
}

Status UrlTable::Rename(uint32_t id, std::string url) {
  if (id >= urls_.size()) return InternalError("url id {} out of range", id);
  auto existing = ids_.find(url);
  if (existing != ids_.end() && existing->second != id) {
    return InvalidArgumentError("renaming url {} to \"{}\" would merge it with url {}", id, url,
                                existing->second);
  }
  ids_.erase(urls_[id]);
  urls_[id] = std::move(url);
  ids_.emplace(urls_[id], id);
  return OkStatus();
}

void ArrayRefs::Reserve(size_t n) {
  chunk_.reserve(n);
  url_.reserve(n);
  offset_.reserve(n);
  length_.reserve(n);
}

void ArrayRefs::AddWholeFile(uint64_t chunk, uint32_t url) {
  AddRange(chunk, url, 0, kWholeFileLength);
}

void ArrayRefs::AddInline(uint64_t chunk, std::string_view bytes, bool base64) {
  AddRange(chunk, base64 ? kInlineBase64 : kInlineText, inline_data_.size(), bytes.size());
  inline_data_.append(bytes);
}

void ArrayRefs::Add(uint64_t chunk, const ChunkRef& ref) {
  switch (ref.kind) {
    case RefKind::kRange:
      AddRange(chunk, ref.url, ref.offset, ref.length);
      break;
    case RefKind::kWholeFile:
      AddWholeFile(chunk, ref.url);
      break;
    case RefKind::kInline:
      AddInline(chunk, ref.data, ref.base64);
      break;
  }
}

size_t ArrayRefs::AddUnset(size_t n) {
  const size_t first = size();
  chunk_.resize(first + n);
  url_.resize(first + n);
  offset_.resize(first + n);
  length_.resize(first + n);
  return first;
}

void ArrayRefs::SetInline(size_t i, uint64_t chunk, std::string_view bytes, bool base64) {
  SetRange(i, chunk, base64 ? kInlineBase64 : kInlineText, inline_data_.size(), bytes.size());
  inline_data_.append(bytes);
}

ChunkRef ArrayRefs::Get(size_t i) const {
  ChunkRef r;
  uint32_t u = url_[i];
  if (u == kInlineText || u == kInlineBase64) {
    r.kind = RefKind::kInline;
    r.base64 = (u == kInlineBase64);
    r.data = std::string_view(inline_data_).substr(offset_[i], length_[i]);
    return r;
  }
  r.url = u;
  if (length_[i] == kWholeFileLength) {
    r.kind = RefKind::kWholeFile;
    return r;
  }
  r.kind = RefKind::kRange;
  r.offset = offset_[i];
  r.length = length_[i];
  return r;
}

Status ArrayRefs::Finalize() {
  if (!std::is_sorted(chunk_.begin(), chunk_.end())) {
    std::vector<uint32_t> order(chunk_.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return chunk_[a] < chunk_[b]; });
    auto permute = [&](auto& column) {
      std::remove_reference_t<decltype(column)> out;
      out.reserve(column.size());
      for (uint32_t i : order) out.push_back(column[i]);
      column.swap(out);
    };
    permute(chunk_);
    permute(url_);
    permute(offset_);
    permute(length_);
  }
  auto dup = std::adjacent_find(chunk_.begin(), chunk_.end());
  if (dup != chunk_.end()) {
    return InvalidArgumentError("duplicate chunk key \"{}{}\"", KeyPrefix(), grid_.Key(*dup));
  }
  return OkStatus();
}

std::optional<size_t> ArrayRefs::Find(uint64_t chunk) const {
  auto it = std::lower_bound(chunk_.begin(), chunk_.end(), chunk);
  if (it == chunk_.end() || *it != chunk) return std::nullopt;
  return static_cast<size_t>(it - chunk_.begin());
}

size_t ArrayRefs::MemoryUsage() const {
  return chunk_.capacity() * sizeof(uint64_t) + url_.capacity() * sizeof(uint32_t) +
         offset_.capacity() * sizeof(uint64_t) + length_.capacity() * sizeof(uint64_t) +
         inline_data_.capacity() + path_.capacity();
}

const Entry* ReferenceSet::FindEntry(std::string_view key) const {
  for (const auto& e : entries) {
    if (e.key == key) return &e;
  }
  return nullptr;
}

Entry* ReferenceSet::FindEntry(std::string_view key) {
  for (auto& e : entries) {
    if (e.key == key) return &e;
  }
  return nullptr;
}

void ReferenceSet::SetText(std::string_view key, std::string text) {
  if (Entry* e = FindEntry(key)) {
    e->value = EntryValue::Text(std::move(text));
    return;
  }
  entries.push_back({std::string(key), EntryValue::Text(std::move(text))});
}

bool ReferenceSet::RemoveEntry(std::string_view key) {
  auto it =
      std::find_if(entries.begin(), entries.end(), [&](const Entry& e) { return e.key == key; });
  if (it == entries.end()) return false;
  entries.erase(it);
  return true;
}

const ArrayRefs* ReferenceSet::FindArray(std::string_view path) const {
  for (const auto& a : arrays) {
    if (a.path() == path) return &a;
  }
  return nullptr;
}

ArrayRefs* ReferenceSet::FindArray(std::string_view path) {
  for (auto& a : arrays) {
    if (a.path() == path) return &a;
  }
  return nullptr;
}

ArrayRefs& ReferenceSet::AddArray(std::string path, ChunkGrid grid) {
  arrays.emplace_back(std::move(path), std::move(grid));
  return arrays.back();
}

uint64_t ReferenceSet::ChunkCount() const {
  uint64_t n = 0;
  for (const auto& a : arrays) n += a.size();
  return n;
}

size_t ReferenceSet::MemoryUsage() const {
  size_t n = 0;
  for (const auto& a : arrays) n += a.MemoryUsage() + sizeof(ArrayRefs);
  for (const auto& e : entries) n += e.key.capacity() + e.value.data.capacity() + sizeof(Entry);
  for (const auto& u : urls.urls()) n += 2 * u.capacity() + 48;  // vector + hash map copy
  return n;
}

Status ReferenceSet::Finalize() {
  for (auto& a : arrays) {
    KERCHUNK_RETURN_IF_ERROR(a.Finalize().Annotate("array \"{}\"", a.path()));
  }
  return OkStatus();
}

std::optional<std::string_view> ZarrayKeyArrayPath(std::string_view key) {
  constexpr std::string_view kSuffix = ".zarray";
  if (key == kSuffix) return std::string_view();
  if (key.size() > kSuffix.size() && key.ends_with(kSuffix) &&
      key[key.size() - kSuffix.size() - 1] == '/') {
    return key.substr(0, key.size() - kSuffix.size() - 1);
  }
  return std::nullopt;
}

}  // namespace kerchunk
