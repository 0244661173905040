#include "verify/verify_testing.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>

#include "kerchunk/json/kerchunk_json.h"

namespace kerchunk::testing {

CommandResult RunKerchunk(const std::string& command, const std::string& args) {
  return RunCommand(fmt::format("{} {} {}", ShellQuote(KerchunkBinary()), command, args));
}

CommandResult RunVerify(const std::string& args) { return RunKerchunk("verify", args); }

void EditReferences(const std::string& in, const std::string& out,
                    const std::function<void(ReferenceSet&)>& edit) {
  Result<ReferenceSet> refs = ReadKerchunkFile(in);
  ASSERT_TRUE(refs.ok()) << refs.status().ToString();
  edit(*refs);
  Status s = WriteKerchunkFile(*refs, out);
  ASSERT_TRUE(s.ok()) << s.ToString();
}

void EditChunk(ReferenceSet& refs, std::string_view key,
               const std::function<void(ChunkRef&)>& edit) {
  for (ArrayRefs& array : refs.arrays) {
    const std::string prefix = array.KeyPrefix();
    if (!key.starts_with(prefix)) continue;
    std::optional<uint64_t> chunk = array.grid().ParseKey(key.substr(prefix.size()));
    if (!chunk || !array.Find(*chunk)) continue;
    ArrayRefs rebuilt(array.path(), array.grid());
    // Inline data views point into `array`: keep copies alive until the rebuild is done.
    std::vector<std::string> inline_copies;
    for (size_t i = 0; i < array.size(); ++i) {
      ChunkRef ref = array.Get(i);
      if (array.chunk_index(i) == *chunk) {
        edit(ref);
        inline_copies.emplace_back(ref.data);
        ref.data = inline_copies.back();
      }
      rebuilt.Add(array.chunk_index(i), ref);
    }
    ASSERT_TRUE(rebuilt.Finalize().ok());
    array = std::move(rebuilt);
    return;
  }
  FAIL() << "no chunk " << key;
}

void EditMetadata(ReferenceSet& refs, std::string_view key,
                  const std::function<void(json::Value&)>& edit) {
  Entry* entry = refs.FindEntry(key);
  ASSERT_NE(entry, nullptr) << key;
  Result<json::Value> doc = json::Value::Parse(entry->value.data);
  ASSERT_TRUE(doc.ok()) << doc.status().ToString();
  edit(*doc);
  entry->value = EntryValue::Text(doc->Dump());
}

std::string ChunkFollowedByAnother(const ReferenceSet& refs, std::string_view path) {
  std::map<std::pair<uint32_t, uint64_t>, bool> starts;  // (url, offset)
  for (const ArrayRefs& a : refs.arrays) {
    for (size_t i = 0; i < a.size(); ++i) {
      if (a.urls()[i] <= ArrayRefs::kMaxUrlId) starts[{a.urls()[i], a.offsets()[i]}] = true;
    }
  }
  const ArrayRefs* array = refs.FindArray(path);
  if (!array) return {};
  for (size_t i = 0; i < array->size(); ++i) {
    const uint32_t url = array->urls()[i];
    if (url > ArrayRefs::kMaxUrlId) continue;
    if (starts.contains({url, array->offsets()[i] + array->lengths()[i]})) {
      return array->KeyPrefix() + array->grid().Key(array->chunk_index(i));
    }
  }
  return {};
}

void CopyFolder(const std::filesystem::path& from, const std::filesystem::path& to) {
  std::filesystem::create_directories(to);
  for (const auto& entry : std::filesystem::directory_iterator(from)) {
    if (entry.is_regular_file()) {
      std::filesystem::copy_file(entry.path(), to / entry.path().filename(),
                                 std::filesystem::copy_options::overwrite_existing);
    }
  }
}

}  // namespace kerchunk::testing
