//===- MpmdExtension.cpp - The `mpmd._mpmd` extension module --------------===//
//
// pybind11 bindings of the embedding API (mpmd/Driver/Session.h) and of
// runtime tensors. This translation unit is built with exceptions and RTTI
// (pybind11 needs both) and therefore talks only to Session.h, whose
// interface names no MLIR type: Debian's MLIR is built without either.
// Conversions only; the Python package (python/mpmd) shapes the API.
//
// Errors: a failed session call raises the exception class of its kind
// from `mpmd.errors`, carrying the collected diagnostics; C++ code below
// never aborts on bad input.
//
//===----------------------------------------------------------------------===//

#include "mpmd/Driver/Session.h"
#include "mpmd/Runtime/Kernels.h"
#include "mpmd/Runtime/Npy.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <string>

namespace py = pybind11;
using namespace mlir::mpmd;
using runtime::DType;
using runtime::Tensor;

namespace {

const char *getErrorKindName(session::ErrorKind kind) {
  switch (kind) {
  case session::ErrorKind::kProgram:
    return "program";
  case session::ErrorKind::kConfig:
    return "config";
  case session::ErrorKind::kInput:
    return "input";
  case session::ErrorKind::kRuntime:
    return "runtime";
  }
  return "runtime";
}

/// Raises the `mpmd.errors` exception of `error`'s kind.
[[noreturn]] void raise(const session::SessionError &error) {
  py::module_ errors = py::module_::import("mpmd.errors");
  py::list diagnostics;
  for (const driver::DiagnosticRecord &record : error.diagnostics)
    diagnostics.append(errors.attr("Diagnostic")(record.severity, record.file,
                                                 record.line, record.column,
                                                 record.message));
  py::object exception = errors.attr("_make_error")(
      getErrorKindName(error.kind), error.message, diagnostics);
  PyErr_SetObject(reinterpret_cast<PyObject *>(Py_TYPE(exception.ptr())),
                  exception.ptr());
  throw py::error_already_set();
}

template <typename T> T unwrap(session::Outcome<T> outcome) {
  if (!outcome.ok())
    raise(outcome.error());
  return std::move(outcome.value());
}

/// The buffer-protocol format of a dtype; bf16 has none in NumPy.
const char *getBufferFormat(DType dtype) {
  switch (dtype) {
  case DType::F64:
    return "d";
  case DType::F32:
    return "f";
  case DType::F16:
    return "e";
  case DType::BF16:
    return nullptr;
  case DType::I1:
    return "?";
  case DType::I8:
    return "b";
  case DType::I16:
    return "h";
  case DType::I32:
    return "i";
  case DType::I64:
    return "q";
  case DType::UI8:
    return "B";
  case DType::UI16:
    return "H";
  case DType::UI32:
    return "I";
  case DType::UI64:
    return "Q";
  case DType::C64:
    return "Zf";
  case DType::C128:
    return "Zd";
  default: // the types NumPy lacks travel as their npyStorageType
    return nullptr;
  }
}

/// The runtime dtype of a NumPy dtype, by kind and size.
std::optional<DType> getRuntimeDType(const py::dtype &dtype) {
  char kind = dtype.kind();
  size_t size = dtype.itemsize();
  if (kind == 'f')
    return size == 8   ? std::optional(DType::F64)
           : size == 4 ? std::optional(DType::F32)
           : size == 2 ? std::optional(DType::F16)
                       : std::nullopt;
  if (kind == 'b')
    return DType::I1;
  if (kind == 'c')
    return size == 8    ? std::optional(DType::C64)
           : size == 16 ? std::optional(DType::C128)
                        : std::nullopt;
  if (kind == 'i')
    return size == 1   ? std::optional(DType::I8)
           : size == 2 ? std::optional(DType::I16)
           : size == 4 ? std::optional(DType::I32)
           : size == 8 ? std::optional(DType::I64)
                       : std::nullopt;
  if (kind == 'u')
    return size == 1   ? std::optional(DType::UI8)
           : size == 2 ? std::optional(DType::UI16)
           : size == 4 ? std::optional(DType::UI32)
           : size == 8 ? std::optional(DType::UI64)
                       : std::nullopt;
  return std::nullopt;
}

/// A copy of a NumPy array (or anything `numpy.asarray` takes) as a tensor;
/// `dtype` bf16 (or another type NumPy lacks) rounds a float32 array to
/// nearest even (i2/i4 wrap an int8 array).
Tensor tensorFromArray(const py::handle &object, std::optional<DType> dtype) {
  py::array array = py::array::ensure(object, py::array::c_style);
  if (!array)
    throw py::type_error("expected an array, got " +
                         std::string(py::str(py::type::of(object))));
  std::optional<DType> source = getRuntimeDType(array.dtype());
  if (!source)
    throw py::type_error("unsupported array dtype " +
                         std::string(py::str(array.dtype())));
  runtime::Shape shape(array.shape(), array.shape() + array.ndim());
  Tensor tensor = Tensor::empty(*source, shape);
  if (tensor.byteSize() != 0)
    std::memcpy(tensor.bytes(), array.data(), tensor.byteSize());
  if (dtype && runtime::npyStorageType(*dtype) != *dtype &&
      *source == runtime::npyStorageType(*dtype))
    return runtime::convert(tensor, *dtype);
  return tensor;
}

/// A read-only NumPy view of `tensor`'s buffer, which it keeps alive; a
/// tensor of a type NumPy lacks (bf16, f8, i4, ...) is converted to a
/// float32 (int8) copy.
py::array tensorToArray(const Tensor &tensor) {
  std::vector<py::ssize_t> shape(tensor.shape().begin(), tensor.shape().end());
  DType stored = runtime::npyStorageType(tensor.dtype());
  if (stored != tensor.dtype()) // exact: f32 holds every narrow float
    return tensorToArray(runtime::convert(tensor, stored));
  auto *owner = new Tensor(tensor);
  py::capsule base(
      owner, [](void *pointer) { delete static_cast<Tensor *>(pointer); });
  py::array array(py::dtype(getBufferFormat(tensor.dtype())), shape,
                  tensor.bytes(), base);
  py::detail::array_proxy(array.ptr())->flags &=
      ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return array;
}

py::tuple specToTuple(const runtime::TensorSpec &spec) {
  return py::make_tuple(py::tuple(py::cast(spec.shape)),
                        runtime::dtypeName(spec.dtype));
}

py::list specsToList(const std::vector<runtime::TensorSpec> &specs) {
  py::list list;
  for (const runtime::TensorSpec &spec : specs)
    list.append(specToTuple(spec));
  return list;
}

py::dict shardingToDict(const session::IoSharding &sharding) {
  py::dict dict;
  dict["mesh"] = sharding.meshName;
  dict["dim_axes"] = sharding.dimAxes;
  dict["text"] = sharding.shardingText;
  dict["memory_kind"] = sharding.memoryKind;
  dict["rank"] = sharding.rank;
  return dict;
}

py::dict simulationToDict(const schedule::Schedule &schedule,
                          const schedule::SimulationResult &result) {
  py::dict dict;
  dict["makespan"] = result.makespan;
  dict["stage_mesh"] = schedule.stageMesh;
  dict["microbatches"] = schedule.numMicrobatches;
  py::list meshes;
  for (const schedule::MeshStats &stats : result.meshes) {
    py::dict mesh;
    mesh["busy"] = stats.busy;
    mesh["first_start"] = stats.firstStart;
    mesh["last_end"] = stats.lastEnd;
    mesh["bubble_fraction"] = stats.bubbleFraction;
    mesh["active_bubble_fraction"] = stats.activeBubbleFraction;
    mesh["peak_live_activations"] = stats.peakLiveActivations;
    mesh["peak_activation_bytes"] = stats.peakActivationBytes;
    meshes.append(mesh);
  }
  dict["meshes"] = meshes;
  py::list timeline;
  for (const std::vector<schedule::TimedAction> &actions : result.timeline) {
    py::list row;
    for (const schedule::TimedAction &timed : actions)
      row.append(py::make_tuple(
          std::string(1, schedule::getActionKindLetter(timed.action.kind)),
          timed.action.microbatch, timed.action.stage, timed.start, timed.end));
    timeline.append(row);
  }
  dict["timeline"] = timeline;
  dict["total_bubble_fraction"] = result.getTotalBubbleFraction();
  return dict;
}

examples::ElementType parseElementType(const std::string &dtype) {
  if (dtype == "f32")
    return examples::ElementType::kF32;
  if (dtype == "f64")
    return examples::ElementType::kF64;
  raise({session::ErrorKind::kConfig,
         "dtype must be 'f32' or 'f64' (got '" + dtype + "')",
         {}});
}

/// Fills in what every example model shares from the binding's arguments.
void setTrainingOptions(examples::ExampleTrainingOptions &options,
                        int64_t layers, int64_t batch, int64_t microbatches,
                        int64_t meshes, const std::string &dtype,
                        double learningRate, const std::string &schedule) {
  options.layers = layers;
  options.batch = batch;
  options.microbatches = microbatches;
  options.meshes = meshes;
  options.elementType = parseElementType(dtype);
  options.learningRate = learningRate;
  options.schedule = unwrap(session::resolveExampleSchedule(schedule));
}

py::tuple modelToTuple(const examples::ExampleModel &model) {
  return py::make_tuple(model.module, model.config);
}

} // namespace

PYBIND11_MODULE(_mpmd, m) {
  m.doc() = "The C++ core of the mpmd package (use the `mpmd` module).";

  py::class_<Tensor>(m, "Tensor", py::buffer_protocol(),
                     "A runtime tensor: dtype, shape and a shared buffer. "
                     "Immutable from Python.")
      .def_static(
          "from_array",
          [](const py::handle &array, std::optional<std::string> dtype) {
            std::optional<DType> target;
            if (dtype && *dtype == "bf16")
              target = DType::BF16;
            return tensorFromArray(array, target);
          },
          py::arg("array"), py::arg("dtype") = py::none(),
          "A copy of `array` (dtype 'bf16' rounds a float32 array).")
      .def_property_readonly("shape",
                             [](const Tensor &tensor) {
                               return py::tuple(py::cast(tensor.shape()));
                             })
      .def_property_readonly("dtype",
                             [](const Tensor &tensor) {
                               return runtime::dtypeName(tensor.dtype());
                             })
      .def_property_readonly("nbytes", &Tensor::byteSize)
      .def("to_numpy", &tensorToArray,
           "A read-only view of the buffer (a float32 copy for bf16).")
      .def("shares_buffer_with", &Tensor::sharesBufferWith)
      .def_buffer([](const Tensor &tensor) -> py::buffer_info {
        const char *format = getBufferFormat(tensor.dtype());
        if (!format)
          throw py::type_error("bf16 tensors have no buffer format; use "
                               "to_numpy()");
        std::vector<py::ssize_t> shape(tensor.shape().begin(),
                                       tensor.shape().end());
        std::vector<py::ssize_t> strides;
        for (int64_t stride : tensor.strides())
          strides.push_back(stride * runtime::dtypeSize(tensor.dtype()));
        return py::buffer_info(const_cast<std::byte *>(tensor.bytes()),
                               runtime::dtypeSize(tensor.dtype()), format,
                               tensor.rank(), shape, strides,
                               /*readonly=*/true);
      });

  py::class_<session::ParsedConfig, std::shared_ptr<session::ParsedConfig>>(
      m, "Config")
      .def_static(
          "parse",
          [](const std::string &json) {
            return std::const_pointer_cast<session::ParsedConfig>(
                unwrap(session::ParsedConfig::parse(json)));
          },
          py::arg("json"))
      .def_property_readonly("mesh_names",
                             &session::ParsedConfig::getMeshNames);

  py::class_<session::ProgramRun, std::shared_ptr<session::ProgramRun>>(m,
                                                                        "Run")
      .def_property_readonly("outputs", &session::ProgramRun::getOutputs)
      .def_property_readonly("step_us", &session::ProgramRun::getStepMicros)
      .def("chrome_trace", &session::ProgramRun::getChromeTrace)
      .def("summary", &session::ProgramRun::getSummary)
      .def("predict", [](const session::ProgramRun &run) {
        session::Prediction prediction = unwrap(run.predict());
        py::dict dict =
            simulationToDict(prediction.schedule, prediction.simulation);
        dict["costs"] = py::make_tuple(
            prediction.costs.forward, prediction.costs.backward,
            prediction.costs.weightGradient, prediction.costs.transfer);
        return dict;
      });

  py::class_<session::CompiledProgram,
             std::shared_ptr<session::CompiledProgram>>(m, "Compiled")
      .def_property_readonly("mesh_names",
                             [](const session::CompiledProgram &compiled) {
                               std::vector<std::string> names;
                               for (const session::MeshInfo &mesh :
                                    compiled.getMeshes())
                                 names.push_back(mesh.name);
                               return names;
                             })
      .def_property_readonly("mesh_devices",
                             [](const session::CompiledProgram &compiled) {
                               std::vector<int64_t> devices;
                               for (const session::MeshInfo &mesh :
                                    compiled.getMeshes())
                                 devices.push_back(mesh.numDevices);
                               return devices;
                             })
      .def_property_readonly("input_specs",
                             [](const session::CompiledProgram &compiled) {
                               return specsToList(compiled.getInputSpecs());
                             })
      .def_property_readonly("output_specs",
                             [](const session::CompiledProgram &compiled) {
                               return specsToList(compiled.getOutputSpecs());
                             })
      .def_property_readonly("input_meshes",
                             &session::CompiledProgram::getInputMeshes)
      .def_property_readonly("output_meshes",
                             &session::CompiledProgram::getOutputMeshes)
      .def(
          "run",
          [](const session::CompiledProgram &compiled, const py::list &args,
             std::optional<int64_t> deviceMemoryBytes) {
            const std::vector<runtime::TensorSpec> &specs =
                compiled.getInputSpecs();
            std::vector<Tensor> inputs;
            inputs.reserve(args.size());
            for (size_t index = 0; index < args.size(); ++index) {
              py::handle arg = args[index];
              if (py::isinstance<Tensor>(arg)) {
                inputs.push_back(arg.cast<const Tensor &>());
                continue;
              }
              std::optional<DType> dtype;
              if (index < specs.size())
                dtype = specs[index].dtype;
              inputs.push_back(tensorFromArray(arg, dtype));
            }
            session::Outcome<std::shared_ptr<const session::ProgramRun>> run =
                [&] {
                  py::gil_scoped_release release;
                  return compiled.run(std::move(inputs), deviceMemoryBytes);
                }();
            return std::const_pointer_cast<session::ProgramRun>(
                unwrap(std::move(run)));
          },
          py::arg("args"), py::arg("device_memory_bytes") = py::none());

  py::class_<session::LoweredProgram, std::shared_ptr<session::LoweredProgram>>(
      m, "Lowered")
      .def(
          "as_text",
          [](const session::LoweredProgram &lowered, const std::string &phase) {
            return unwrap(lowered.asText(phase));
          })
      .def("input_shardings",
           [](const session::LoweredProgram &lowered) {
             py::list list;
             for (const session::IoSharding &io : lowered.getInputShardings())
               list.append(shardingToDict(io));
             return list;
           })
      .def("output_shardings",
           [](const session::LoweredProgram &lowered) {
             py::list list;
             for (const session::IoSharding &io : lowered.getOutputShardings())
               list.append(shardingToDict(io));
             return list;
           })
      .def("summary", &session::LoweredProgram::getSummary)
      .def("compile", [](const session::LoweredProgram &lowered) {
        session::Outcome<std::shared_ptr<const session::CompiledProgram>>
            compiled = [&] {
              py::gil_scoped_release release;
              return lowered.compile();
            }();
        return std::const_pointer_cast<session::CompiledProgram>(
            unwrap(std::move(compiled)));
      });

  py::class_<session::Program, std::shared_ptr<session::Program>>(m, "Program")
      .def_static(
          "parse",
          [](const std::string &text, const std::string &name) {
            return unwrap(session::Program::parse(text, name));
          },
          py::arg("text"), py::arg("name") = "<string>")
      .def_static(
          "read_file",
          [](const std::string &path) {
            return unwrap(session::Program::readFile(path));
          },
          py::arg("path"))
      .def("input_specs",
           [](const session::Program &program) {
             return specsToList(unwrap(program.getMainInputSpecs()));
           })
      .def(
          "lower",
          [](const session::Program &program,
             const session::ParsedConfig &config, bool keepPhaseTexts) {
            session::Outcome<std::shared_ptr<const session::LoweredProgram>>
                lowered = [&] {
                  py::gil_scoped_release release;
                  return program.lower(config, keepPhaseTexts);
                }();
            return std::const_pointer_cast<session::LoweredProgram>(
                unwrap(std::move(lowered)));
          },
          py::arg("config"), py::arg("keep_phase_texts") = false)
      .def(
          "validate",
          [](const session::Program &program, const std::vector<Tensor> &inputs,
             const std::vector<Tensor> &outputs,
             std::optional<double> tolerance) {
            session::Outcome<session::Program::Validation> validation = [&] {
              py::gil_scoped_release release;
              return program.validate(inputs, outputs, tolerance);
            }();
            session::Program::Validation result = unwrap(std::move(validation));
            return py::make_tuple(result.passed, result.report);
          },
          py::arg("inputs"), py::arg("outputs"),
          py::arg("tolerance") = py::none());

  m.def(
      "random_inputs",
      [](uint64_t seed,
         const std::vector<std::pair<std::vector<int64_t>, std::string>>
             &specs) {
        std::vector<runtime::TensorSpec> runtimeSpecs;
        for (const auto &[shape, dtypeName] : specs) {
          std::optional<DType> dtype;
          for (DType candidate :
               {DType::F64, DType::F32, DType::F16, DType::BF16, DType::I1,
                DType::I8, DType::I16, DType::I32, DType::I64, DType::UI8,
                DType::UI16, DType::UI32, DType::UI64})
            if (dtypeName == runtime::dtypeName(candidate))
              dtype = candidate;
          if (!dtype)
            raise({session::ErrorKind::kInput,
                   "unknown dtype '" + dtypeName + "'",
                   {}});
          runtimeSpecs.push_back({*dtype, shape});
        }
        return session::makeRandomInputs(seed, runtimeSpecs);
      },
      py::arg("seed"), py::arg("specs"));

  m.def(
      "simulate_schedule",
      [](const std::string &name, int64_t meshes, int64_t microbatches,
         std::optional<int64_t> stagesPerMesh,
         std::tuple<double, double, double, double> costs,
         const std::vector<std::tuple<double, double, double, double, double>>
             &stageCosts) {
        schedule::ActionCosts actionCosts{
            std::get<0>(costs), std::get<1>(costs), std::get<2>(costs),
            std::get<3>(costs)};
        std::vector<schedule::StageCosts> perStage;
        for (const auto &[forward, backward, weightGradient, transfer, bytes] :
             stageCosts)
          perStage.push_back(
              {forward, backward, weightGradient, transfer, bytes});
        session::ScheduleSimulation simulation = unwrap(
            session::simulateSchedule(name, meshes, microbatches, stagesPerMesh,
                                      actionCosts, perStage));
        py::dict dict =
            simulationToDict(simulation.schedule, simulation.result);
        dict["title"] = simulation.title;
        dict["summary"] = simulation.summary;
        return dict;
      },
      py::arg("name"), py::arg("meshes"), py::arg("microbatches"),
      py::arg("stages_per_mesh"), py::arg("costs"), py::arg("stage_costs"));

  m.def(
      "example_mlp",
      [](int64_t layers, int64_t width, int64_t batch, int64_t microbatches,
         int64_t meshes, const std::string &dtype, double learningRate,
         const std::string &schedule) {
        examples::MlpOptions options;
        setTrainingOptions(options, layers, batch, microbatches, meshes, dtype,
                           learningRate, schedule);
        options.width = width;
        return modelToTuple(unwrap(session::generateMlpExample(options)));
      },
      py::arg("layers"), py::arg("width"), py::arg("batch"),
      py::arg("microbatches"), py::arg("meshes"), py::arg("dtype"),
      py::arg("learning_rate"), py::arg("schedule"));

  m.def(
      "example_transformer",
      [](int64_t layers, int64_t sequence, int64_t dim,
         const std::vector<int64_t> &ffn, int64_t batch, int64_t microbatches, int64_t meshes,
         const std::string &dtype, double learningRate,
         const std::string &schedule) {
        examples::TransformerOptions options;
        setTrainingOptions(options, layers, batch, microbatches, meshes, dtype,
                           learningRate, schedule);
        options.sequence = sequence;
        options.dim = dim;
        // One width for every layer, or one per layer.
        if (ffn.size() == 1)
          options.ffn = ffn.front();
        else
          options.ffnPerLayer = ffn;
        return modelToTuple(
            unwrap(session::generateTransformerExample(options)));
      },
      py::arg("layers"), py::arg("seq"), py::arg("dim"), py::arg("ffn"),
      py::arg("batch"), py::arg("microbatches"), py::arg("meshes"),
      py::arg("dtype"), py::arg("learning_rate"), py::arg("schedule"));

  m.def(
      "example_cnn",
      [](int64_t layers, int64_t image, int64_t channels, int64_t classes,
         int64_t batch, int64_t microbatches, int64_t meshes,
         const std::string &dtype, double learningRate,
         const std::string &schedule) {
        examples::CnnOptions options;
        setTrainingOptions(options, layers, batch, microbatches, meshes, dtype,
                           learningRate, schedule);
        options.image = image;
        options.channels = channels;
        options.classes = classes;
        return modelToTuple(unwrap(session::generateCnnExample(options)));
      },
      py::arg("layers"), py::arg("image"), py::arg("channels"),
      py::arg("classes"), py::arg("batch"), py::arg("microbatches"),
      py::arg("meshes"), py::arg("dtype"), py::arg("learning_rate"),
      py::arg("schedule"));
}
