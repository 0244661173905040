// The NetCDF-3 format scanner: the signature, and the translator (translator.h) on the bytes.
#include "kerchunk/netcdf3/scan_netcdf3.h"

#include <array>
#include <cstring>

#include "kerchunk/netcdf3/translator.h"
#include "kerchunk/util/file_io.h"

namespace kerchunk {
namespace {

class Netcdf3Scanner : public FormatScanner {
 public:
  std::string_view format_name() const override { return "NetCDF-3"; }

  // Classic ("CDF\x01"), 64-bit offset ("CDF\x02") and CDF-5 ("CDF\x05").
  bool Recognizes(std::span<const std::byte> file) const override {
    if (file.size() < 4) return false;
    for (unsigned char version : {1, 2, 5}) {
      const std::array<unsigned char, 4> magic = {'C', 'D', 'F', version};
      if (std::memcmp(file.data(), magic.data(), magic.size()) == 0) return true;
    }
    return false;
  }

  Result<FileScanResult> Scan(const FileBytes& file,
                              const FileScanOptions& options) const override {
    return netcdf3::TranslateNetcdf3(file.bytes, file.name, file.url, options);
  }
};

}  // namespace

const FormatScanner& Netcdf3FormatScanner() {
  static const Netcdf3Scanner scanner;
  return scanner;
}

Result<FileScanResult> ScanNetcdf3File(const std::string& path, const std::string& url,
                                       const FileScanOptions& options) {
  // A memory map: parsing touches the header pages, and only inline chunks read data pages.
  KERCHUNK_ASSIGN_OR_RETURN(MappedFile file, MappedFile::Open(path));
  return Netcdf3FormatScanner().Scan({file.bytes(), path, url, path}, options);
}

}  // namespace kerchunk
