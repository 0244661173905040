// The container's zstd dictionary: raw content that zstd copies matches from, so that even a
// small packed file finds its words (format keys, zarr metadata, CF attributes, numcodecs ids)
// without having seen them first. Written by hand from the packed format and what Kerchunk
// indexes of NetCDF/HDF5 hold; the words used most sit last, where matches cost least.
//
// Never edit this text: every container written with it needs exactly these bytes to be read. A
// better dictionary needs a new container magic (docs/packed-format.md, "Container").
#include "packed_container.h"

namespace kerchunk::pack::internal {
namespace {

constexpr std::string_view kDictionary =
    R"({"kerchunk_sources":{"files":[{"url":"/data/","size":1,"mtime_ns":1,"metadata_xxh3":"0"}]})"
    R"( "title":"","institution":"","source":"","history":"","references":"","comment":"",)"
    R"("Conventions":"CF-1.7","contact":"","creation_date":"","tracking_id":"hdl:21.14100/",)"
    R"("experiment_id":"historical","variant_label":"r1i1p1f1","frequency":"mon","product":)"
    R"("model-output","license":"","realm":"atmos","table_id":"Amon","grid_label":"gn",)"
    R"("further_info_url":"https://furtherinfo.es-doc.org/CMIP6.","driving_model_id":"",)"
    R"("CORDEX_domain":"","project_id":"CMIP6","date_created":"","NCO":"netCDF Operators",)"
    R"( "standard_name":"air_temperature","long_name":"Near-Surface Air Temperature",)"
    R"("cell_methods":"time: mean","cell_measures":"area: areacella","coordinates":"height",)"
    R"("grid_mapping":"crs","positive":"up","valid_min":0,"valid_max":1,"valid_range":[0,1],)"
    R"("scale_factor":0.01,"add_offset":0.0,"missing_value":1e+20,"_FillValue":1e+20,)"
    R"("_Unsigned":"true","comment":"","original_name":"","interval_operation":"",)"
    R"("axis":"X","axis":"Y","axis":"Z","axis":"T","standard_name":"latitude","long_name":)"
    R"("latitude","units":"degrees_north","standard_name":"longitude","long_name":"longitude",)"
    R"("units":"degrees_east","standard_name":"time","long_name":"time","bounds":"lat_bnds",)"
    R"("bounds":"lon_bnds","bounds":"time_bnds","calendar":"noleap","calendar":"proleptic_gregorian",)"
    R"("calendar":"360_day","calendar":"gregorian","calendar":"standard","units":"K","units":"m",)"
    R"("units":"1","units":"kg m-2 s-1","units":"W m-2","units":"Pa","units":"%",)"
    R"("units":"hours since 1900-01-01 00:00:00","units":"seconds since 1970-01-01 00:00:00",)"
    R"("units":"days since 1850-01-01 00:00:00","units":"days since 1850-01-01",)"
    R"("compressor":{"id":"zstd","level":1},"compressor":{"blocksize":0,"clevel":5,"cname":"lz4",)"
    R"("id":"blosc","shuffle":1},"filters":[{"id":"fletcher32"}],"filters":[{"id":"json2"}],)"
    R"("filters":[{"id":"vlen-utf8"}],"dtype":"|O","dtype":"|S1","dtype":"|u1","dtype":"|i1",)"
    R"("dtype":"<u2","dtype":">f4","dtype":">f8","dtype":"<i8","dtype":"<i2","dtype":"<i4",)"
    R"("dtype":"<f4","dtype":"<f8","fill_value":-9999.0,"fill_value":-32767,)"
    R"("fill_value":9.969209968386869e+36,"fill_value":1.0000000200408773e+20,"fill_value":1e+20,)"
    R"("fill_value":"NaN","fill_value":0,"fill_value":null,)"
    R"("inline":[{"variable":"","values":1,"chunks":{"delta":""},"ids":{"delta-zigzag":""},)"
    R"("text":{"delta":""},"lengths":{"varint":""},"block_values":1,"codec":"zstd","transform":)"
    R"("shuffle","transform":"none","itemsize":8,"blocks":{"delta":""},"data":""},)"
    R"("generators":[{"variables":[""],"chunk_grid":[1],"interleave":1,"references":1,)"
    R"("checkpoint_interval":256,"stats":{"slots":1,"skipped":0,"unique":0,"modal_length":1,)"
    R"("gaps":0,"file_switches":0,"gfactor":1.0},"presence":{"varint":"AAE="},"lengths":)"
    R"({"coding":"plain","values":[]},"lengths":{"coding":"rice","predictor":"previous",)"
    R"("predictor":"position","predictor":"constant","centers":{"delta-zigzag":""},)"
    R"("parameters":{"varint":""},"block_bits":{"delta":"AA=="},"bits":0,"data":""},)"
    R"("ends":{"delta-zigzag":"AA=="},"gaps":{"default":{"zigzag":"AA=="},"index":{"delta":""},)"
    R"("value":{"zigzag":""}},"files":{"index":{"delta":"AA=="},"url":{"delta-zigzag":"AA=="}}}]})"
    R"("templates":{"u":""},"gen":[],"version":1,"refs":{)"
    R"(".zgroup":"{\"zarr_format\":2}",".zattrs":"{\"Conventions\":\"CF-1.6\"}",)"
    R"("lat/.zarray":"{\"chunks\":[1],\"compressor\":null,\"dtype\":\"<f8\",\"fill_value\":)"
    R"(\"NaN\",\"filters\":null,\"order\":\"C\",\"shape\":[1],\"zarr_format\":2}",)"
    R"("lat/.zattrs":"{\"_ARRAY_DIMENSIONS\":[\"lat\"],\"units\":\"degrees_north\"}",)"
    R"("lon/.zattrs":"{\"_ARRAY_DIMENSIONS\":[\"lon\"],\"units\":\"degrees_east\"}",)"
    R"("time/.zattrs":"{\"_ARRAY_DIMENSIONS\":[\"time\"],\"calendar\":\"standard\",)"
    R"(\"units\":\"days since 1850-01-01 00:00:00\"}","time/0":"base64:AAAAAAAA",)"
    R"("time_bnds/.zattrs":"{\"_ARRAY_DIMENSIONS\":[\"time\",\"bnds\"]}",)"
    R"("lat_bnds/.zattrs":"{\"_ARRAY_DIMENSIONS\":[\"lat\",\"bnds\"]}",)"
    R"(".zarray":"{\"chunks\":[1,1,1],\"compressor\":{\"id\":\"zlib\",\"level\":1},)"
    R"(\"dtype\":\"<f4\",\"fill_value\":1.0000000200408773e+20,\"filters\":[{\"elementsize\":4,)"
    R"(\"id\":\"shuffle\"}],\"order\":\"C\",\"shape\":[1,1,1],\"zarr_format\":2}",)"
    R"(".zattrs":"{\"_ARRAY_DIMENSIONS\":[\"time\",\"lat\",\"lon\"],\"units\":\"K\"}",)"
    R"(/0.0.0":["/data/file.nc",1,1],"/0.0":["s3://bucket/",1,1],"/0":"base64:)"
    R"({"format":"kerchunk-packed","format_version":2,"checksum":"kcd2:1:0",)"
    R"("kerchunk":{"version":1,"refs":{".zgroup":"{\"zarr_format\":2}",)"
    R"(".zarray":"{\"chunks\":[1],\"compressor\":null,\"dtype\":\"<f8\",\"fill_value\":null,)"
    R"(\"filters\":[{\"id\":\"zlib\",\"level\":4}],\"order\":\"C\",\"shape\":[1],)"
    R"(\"zarr_format\":2}",".zattrs":"{\"_ARRAY_DIMENSIONS\":[\"time\"]}",)"
    R"("urls":["/data/"],"generators":[{"variables":)"
    // What the writer emits around a small document, with its line breaks.
    "\n]}\n\"urls\":[],\n\"generators\":[]}\n"
    "{\"format\":\"kerchunk-packed\",\"format_version\":2,\"checksum\":\"kcd2:"
    "\",\n\"kerchunk\":{\"version\":1,\"refs\":{\n\".zgroup\":\"{\\\"zarr_format\\\":2}\",\n"
    "\"\n}},\n\"urls\":[\"\"],\n\"inline\":[\n{\"variable\":\"\",\"values\":"
    "{\"format\":\"kerchunk-packed\",\"format_version\":1,\"checksum\":\"kcd2:1:"
    "\",\n\"kerchunk\":{\"version\":1,\"refs\":{\n\".zgroup\":\"{\\\"zarr_format\\\":2}\"\n}},\n"
    "\"urls\":[],\n\"generators\":[]}\n";

}  // namespace

std::string_view ContainerDictionary() { return kDictionary; }

}  // namespace kerchunk::pack::internal
