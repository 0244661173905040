// A test helper: translates HDF5 files with ScanHdf5File and writes Kerchunk JSON, so the
// real-client check (client_check.py) and developers can look at what the translator produces.
//   hdf5_translate_tool [--inline-threshold N] [--on-unsupported error|skip|inline]
//                       <file.h5> <url> <out.json>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/scan/file_scan.h"

int main(int argc, char** argv) {
  kerchunk::FileScanOptions options;
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--inline-threshold" && i + 1 < argc) {
      options.inline_threshold = std::strtoull(argv[++i], nullptr, 10);
    } else if (a == "--on-unsupported" && i + 1 < argc) {
      const std::string v = argv[++i];
      options.on_unsupported = v == "skip"     ? kerchunk::OnUnsupported::kSkip
                               : v == "inline" ? kerchunk::OnUnsupported::kInline
                                               : kerchunk::OnUnsupported::kError;
    } else {
      args.push_back(a);
    }
  }
  if (args.size() != 3) {
    std::fprintf(stderr, "usage: %s [options] <file.h5> <url> <out.json>\n", argv[0]);
    return 2;
  }
  auto result = kerchunk::ScanHdf5File(args[0], args[1], options);
  if (!result.ok()) {
    std::fprintf(stderr, "%s\n", result.status().ToString().c_str());
    return 1;
  }
  for (const std::string& w : result->warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
  if (auto s = kerchunk::WriteKerchunkFile(result->refs, args[2]); !s.ok()) {
    std::fprintf(stderr, "%s\n", s.ToString().c_str());
    return 1;
  }
  return 0;
}
