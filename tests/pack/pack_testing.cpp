#include "pack_testing.h"

#include "kerchunk/json/json_value.h"
#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/refs/digest.h"
#include "support/refs_testing.h"

namespace kerchunk::pack::testing {

std::string Zarray(const std::vector<uint64_t>& shape, const std::vector<uint64_t>& chunks,
                   char separator) {
  json::Value z = json::Value::MakeObject();
  json::Value js = json::Value::MakeArray(), jc = json::Value::MakeArray();
  for (uint64_t s : shape) js.Push(json::Value::Uint(s));
  for (uint64_t c : chunks) jc.Push(json::Value::Uint(c));
  z.Set("shape", js);
  z.Set("chunks", jc);
  z.Set("dtype", json::Value::String("<i4"));
  z.Set("fill_value", json::Value::Int(0));
  z.Set("compressor", json::Value::Null());
  z.Set("filters", json::Value::Null());
  z.Set("order", json::Value::String("C"));
  z.Set("zarr_format", json::Value::Int(2));
  if (separator != '.')
    z.Set("dimension_separator", json::Value::String(std::string(1, separator)));
  return z.Dump();
}

size_t AddArray(ReferenceSet& refs, const std::string& path, const std::vector<uint64_t>& shape,
                const std::vector<uint64_t>& chunks, char separator) {
  refs.SetText(path.empty() ? ".zarray" : path + "/.zarray", Zarray(shape, chunks, separator));
  refs.AddArray(path, *ChunkGrid::Make(shape, chunks, separator));
  return refs.arrays.size() - 1;
}

std::string PackText(const ReferenceSet& refs, const PackOptions& options) {
  auto packed = Pack(refs, options);
  EXPECT_TRUE(packed.ok()) << packed.status().message();
  return packed.ok() ? packed->text : std::string();
}

std::string ExpectRoundTrip(const ReferenceSet& refs, const PackOptions& options) {
  auto packed = Pack(refs, options);
  EXPECT_TRUE(packed.ok()) << packed.status().message();
  if (!packed.ok()) return {};
  // Binary fields live outside the text: only the binary container holds the whole file.
  const std::string file = options.binary ? CompactPackedFile(*packed) : packed->text;
  auto index = PackedIndex::Parse(file);
  EXPECT_TRUE(index.ok()) << index.status().message() << "\n" << packed->text.substr(0, 2000);
  if (!index.ok()) return file;
  auto unpacked = index->UnpackAll();
  EXPECT_TRUE(unpacked.ok()) << unpacked.status().message();
  if (!unpacked.ok()) return file;
  EXPECT_TRUE(kerchunk::testing::SameReferences(refs, *unpacked));
  EXPECT_EQ(DigestReferences(*unpacked), DigestReferences(refs));
  // The written JSON reads back to the same references as well.
  std::string json;
  SerializeKerchunkJson(*unpacked, {}, json);
  auto reread = ParseKerchunkJson(json);
  EXPECT_TRUE(reread.ok()) << reread.status().message();
  if (reread.ok()) {
    EXPECT_TRUE(kerchunk::testing::SameReferences(refs, *reread));
  }
  return file;
}

}  // namespace kerchunk::pack::testing
