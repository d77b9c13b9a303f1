// Bad input (degenerate): 400 nested regions (Python's recursion limit): a located parse error, not an internal error.
// ERROR: operations nest too deeply here for the parser
module {
  func.func @k() {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.execute_region {
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    scf.yield
    }
    return
  }
}
