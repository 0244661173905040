// The original file of --source when it is remote: its bytes as an io::FileImage (fetched where
// the library reads, as scan reads them), opened by libhdf5 or netCDF-C in memory.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>

#include "hdf5/h5_library.h"
#include "kerchunk/util/status.h"
#include "verify/chunks.h"
#include "verify/files.h"

namespace kerchunk::verify::internal {

/// Opens an HDF5 file image read-only with the core driver using the image in place: the
/// driver's copy of a lazily fetched image would fetch the whole file.
Result<hdf5::Handle> OpenHdf5InPlace(std::span<const std::byte> image, const std::string& name);

/// The remote file `url` for its library; its requests and bytes are added to `access` when
/// it is closed. status() reports a fetch that failed while the library read.
Result<std::unique_ptr<SourceFile>> OpenRemoteSourceFile(const std::string& url,
                                                         RemoteAccess& access);

}  // namespace kerchunk::verify::internal
