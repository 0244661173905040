#include <algorithm>

#include "kerchunk/scan/file_scan.h"
#include "verify/source.h"

namespace kerchunk::verify::internal {

Result<std::unique_ptr<SourceFile>> OpenSourceFile(const std::string& path) {
  KERCHUNK_ASSIGN_OR_RETURN(FileFormat format, DetectFileFormat(path));
  switch (format) {
    case FileFormat::kHdf5:
      return OpenHdf5Source(path);
    case FileFormat::kNetcdf3:
      return OpenNetcdf3Source(path);
    case FileFormat::kUnknown:
      break;
  }
  return UnsupportedError("{} is neither an HDF5 nor a NetCDF-3 file: no library to compare with",
                          path);
}

std::shared_ptr<SourceFiles::Slot> SourceFiles::Acquire(uint32_t url) {
  std::lock_guard lock(mutex_);
  auto [it, inserted] = open_.try_emplace(url);
  if (inserted) it->second = std::make_shared<Slot>();
  recent_.remove(url);
  recent_.push_front(url);
  std::shared_ptr<Slot> slot = it->second;
  // Closing a file someone still uses is safe: they hold the slot until they are done.
  while (recent_.size() > max_open_) {
    open_.erase(recent_.back());
    recent_.pop_back();
  }
  return slot;
}

Status SourceFiles::With(uint32_t url, const std::string& array,
                         const std::function<Status(SourceDataset&)>& fn) {
  {
    std::lock_guard lock(mutex_);
    if (auto failed = failed_.find(url); failed != failed_.end()) return failed->second;
  }
  std::shared_ptr<Slot> slot = Acquire(url);
  std::lock_guard lock(slot->mutex);
  if (!slot->file && slot->open_error.ok()) {
    Result<std::unique_ptr<SourceFile>> file = OpenSourceFile(files_.by_url[url].path);
    if (file.ok()) {
      slot->file = *std::move(file);
    } else {
      slot->open_error = file.status();
      std::lock_guard failed_lock(mutex_);
      failed_.emplace(url, slot->open_error);
    }
  }
  if (!slot->open_error.ok()) return slot->open_error;
  KERCHUNK_ASSIGN_OR_RETURN(SourceDataset * dataset, slot->file->Dataset(array));
  return fn(*dataset);
}

}  // namespace kerchunk::verify::internal
