// Fuzz target: the Kerchunk JSON reader, and the exactness of what follows a successful read:
// writing it back and packing it must both give the same references (same checksum), or the
// target aborts. See run_fuzzers.sh.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/pack/pack.h"
#include "kerchunk/pack/packed_index.h"
#include "kerchunk/refs/digest.h"

namespace {

void Check(bool ok, const char* what, const std::string& detail) {
  if (ok) return;
  std::fprintf(stderr, "kerchunk_json_fuzz: %s: %s\n", what, detail.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace kerchunk;
  auto refs = ParseKerchunkJson(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!refs.ok()) return 0;
  const ReferenceDigest digest = DigestReferences(*refs);
  if (digest.keys > 200'000) return 0;  // a "gen" entry may describe many references
  std::string json;
  SerializeKerchunkJson(*refs, {}, json);
  auto reread = ParseKerchunkJson(json);
  Check(reread.ok(), "written JSON does not read back", reread.status().ToString());
  Check(DigestReferences(*reread) == digest, "written JSON reads back differently", json);
  for (bool readable : {false, true}) {
    auto packed = pack::Pack(*refs, {.checkpoint_interval = 3, .readable = readable});
    Check(packed.ok(), "pack failed", packed.status().ToString());
    auto index = pack::PackedIndex::Parse(packed->text);
    Check(index.ok(), "packed file does not parse", index.status().ToString());
    auto unpacked = index->UnpackAll();
    Check(unpacked.ok(), "packed file does not unpack", unpacked.status().ToString());
    Check(DigestReferences(*unpacked) == digest, "unpack(pack(x)) != x", packed->text);
  }
  return 0;
}
