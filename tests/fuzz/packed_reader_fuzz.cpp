// Fuzz target: the packed-file reader (PackedIndex::Parse) and what a reader does next with a
// file it accepted -- lookups, a selection, and the full expansion with its checksum check.
// Nothing may crash, hang or allocate beyond what the input holds; see run_fuzzers.sh.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "kerchunk/pack/packed_index.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using kerchunk::pack::PackedIndex;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto index = PackedIndex::Parse(text);
  if (!index.ok()) return 0;
  // A small input can describe billions of fixed-size chunks; expand only modest ones so a run
  // measures the reader, not the size of its output.
  constexpr uint64_t kMaxExpanded = 200'000;
  if (index->key_count() > kMaxExpanded) return 0;
  auto all = index->UnpackAll({.max_references = kMaxExpanded});
  if (all.ok()) {
    for (const auto& array : all->arrays) {
      if (array.empty()) continue;
      std::string key = array.KeyPrefix() + array.grid().Key(array.chunk_index(0));
      (void)index->Resolve(key);
      (void)index->Select(array.path().empty() ? "x" : array.path());
    }
  }
  for (const char* key : {".zgroup", "0", "0.0", "a/0", "a/0.0.0", "t2m/1.1.1"}) {
    (void)index->Resolve(key);
  }
  return 0;
}
