#include "identical_dims_check.h"

#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/scan/input_list.h"

namespace kerchunk::cli {

Status CheckIdenticalDims(const std::vector<std::string>& names, const ReferenceSet& refs,
                          const std::string& source) {
  for (const std::string& name : names) {
    if (refs.FindEntry(name + "/.zarray") != nullptr || refs.FindArray(name) != nullptr) continue;
    return InvalidArgumentError("--identical-dims {}: no variable of that name in {}", name,
                                source);
  }
  return OkStatus();
}

Status CheckIdenticalDimsInFirstFile(const std::vector<std::string>& names,
                                     const std::vector<std::string>& files,
                                     const FileScanOptions& options) {
  if (names.empty() || files.empty()) return OkStatus();
  Result<FileScanResult> first = ScanFile(files.front(), files.front(), options);
  if (!first.ok()) return OkStatus();
  return CheckIdenticalDims(names, first->refs, files.front());
}

Status CheckIdenticalDimsInFirstPart(const std::vector<std::string>& names,
                                     const std::vector<std::string>& parts) {
  if (names.empty()) return OkStatus();
  Result<std::vector<std::string>> files = ExpandFilePatterns(parts);
  if (!files.ok()) return OkStatus();
  for (const std::string& part : *files) {  // the first that is not empty (an empty shard)
    Result<ReferenceSet> refs = ReadKerchunkFile(part);
    if (!refs.ok()) return OkStatus();  // combine reports why
    if (!refs->entries.empty() || !refs->arrays.empty()) {
      return CheckIdenticalDims(names, *refs, part);
    }
  }
  return OkStatus();
}

}  // namespace kerchunk::cli
