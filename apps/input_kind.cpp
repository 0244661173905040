#include "input_kind.h"

#include "kerchunk/pack/packed_index.h"
#include "kerchunk/scan/file_scan.h"

namespace kerchunk::cli {

Status CheckNotDataFile(const std::string& path) {
  if (path.empty() || path == "-") return OkStatus();
  Result<FileFormat> format = DetectFileFormat(path);
  if (format.ok() && *format != FileFormat::kUnknown) {
    return InvalidArgumentError(
        "{}: this is a data file, not a reference index; run kerchunk scan first", path);
  }
  return OkStatus();
}

Status CheckNotPacked(const std::string& path) {
  if (path.empty() || path == "-" || !pack::IsPackedFile(path)) return OkStatus();
  return InvalidArgumentError(
      "{}: already packed; give the Kerchunk JSON it was packed from (kerchunk unpack writes it)",
      path);
}

Status CheckIndexInput(const std::string& path, IndexInput accepted) {
  KERCHUNK_RETURN_IF_ERROR(CheckNotDataFile(path));
  return accepted == IndexInput::kPlain ? CheckNotPacked(path) : OkStatus();
}

}  // namespace kerchunk::cli
