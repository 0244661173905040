// Scans one file through the installed library and prints how many chunk references it has.
#include <cstdio>

#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/scan/file_scan.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: find_package_test FILE\n");
    return 2;
  }
  auto result = kerchunk::ScanFile(argv[1], argv[1], {});
  if (!result.ok()) {
    std::fprintf(stderr, "%s\n", result.status().message().c_str());
    return 1;
  }
  std::string json;
  kerchunk::SerializeKerchunkJson(result->refs, {}, json);
  std::printf("%llu chunk references, %zu bytes of JSON\n",
              static_cast<unsigned long long>(result->refs.ChunkCount()), json.size());
  return 0;
}
