#include "verify/catalog.h"

namespace kerchunk::verify::internal {

std::optional<std::string_view> MetadataText(const Entry& entry) {
  switch (entry.value.kind) {
    case EntryValue::Kind::kText:
    case EntryValue::Kind::kJson:
    case EntryValue::Kind::kBase64:
      return std::string_view(entry.value.data);
    case EntryValue::Kind::kRange:
    case EntryValue::Kind::kWholeFile:
      return std::nullopt;
  }
  return std::nullopt;
}

MetadataKind KindOfKey(std::string_view key) {
  const size_t slash = key.rfind('/');
  const std::string_view last = slash == std::string_view::npos ? key : key.substr(slash + 1);
  if (last == ".zarray") return MetadataKind::kZarray;
  if (last == ".zattrs") return MetadataKind::kZattrs;
  if (last == ".zgroup") return MetadataKind::kZgroup;
  if (last == ".zmetadata") return MetadataKind::kZmetadata;
  return MetadataKind::kNone;
}

std::string_view NodePath(std::string_view key) {
  const size_t slash = key.rfind('/');
  return slash == std::string_view::npos ? std::string_view() : key.substr(0, slash);
}

}  // namespace kerchunk::verify::internal
