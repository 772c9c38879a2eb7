// cule._core: the pybind11 module. Thin: converts types, releases the GIL
// around emulation, maps cule's exceptions to Python's.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "cule/cule.hpp"

namespace py = pybind11;

namespace {

cule::FlatMachine flat_machine_from_bytes(const py::bytes& image, uint16_t load_address) {
  const std::string data = image;
  return cule::FlatMachine(reinterpret_cast<const uint8_t*>(data.data()), data.size(),
                           load_address);
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "cule's compiled core (use the `cule` package)";
  m.attr("__version__") = CULE_VERSION;

  py::register_exception_translator([](std::exception_ptr error) {
    try {
      if (error) std::rethrow_exception(error);
    } catch (const cule::FileError& e) {
      PyErr_SetString(PyExc_FileNotFoundError, e.what());
    } catch (const cule::DeviceError& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    } catch (const cule::Error& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });

  py::class_<cule::CpuRunResult>(m, "CpuRunResult", "How a run of a FlatMachine ended.")
      .def_readonly("pc", &cule::CpuRunResult::pc)
      .def_readonly("instructions", &cule::CpuRunResult::instructions)
      .def_readonly("cycles", &cule::CpuRunResult::cycles)
      .def_readonly("jammed", &cule::CpuRunResult::jammed)
      .def_readonly("trapped", &cule::CpuRunResult::trapped)
      .def("__repr__", [](const cule::CpuRunResult& r) {
        return "CpuRunResult(pc=" + std::to_string(r.pc) +
               ", instructions=" + std::to_string(r.instructions) +
               ", cycles=" + std::to_string(r.cycles) +
               ", jammed=" + (r.jammed ? "True" : "False") +
               ", trapped=" + (r.trapped ? "True" : "False") + ")";
      });

  py::class_<cule::FlatMachine>(m, "FlatMachine",
                                "A 6502 over 64 KiB of flat RAM, for CPU test images.")
      .def(py::init(&flat_machine_from_bytes), py::arg("image"), py::arg("load_address") = 0)
      .def_static("from_file", &cule::FlatMachine::from_file, py::arg("path"),
                  py::arg("load_address") = 0)
      .def("run", &cule::FlatMachine::run, py::arg("start_pc"), py::arg("max_instructions"),
           py::call_guard<py::gil_scoped_release>(),
           "Set PC and run until a trap (PC stops moving), a JAM, or max_instructions.")
      .def_property_readonly("memory", [](const cule::FlatMachine& machine) {
        const auto& memory = machine.memory();
        return py::bytes(reinterpret_cast<const char*>(memory.data()), memory.size());
      });

  m.def("cuda_device_count", &cule::cuda_device_count,
        "Number of usable CUDA devices (0 without CUDA support, driver or device).");
}
