// Examples shown in dialects/tile.md: the first use of each op, as our printer prints it.
// gen_dialects.py parses and verifies this file; an example that stops parsing fails it.
func.func @k(%g: memref<16x64xf32, #hivm.address_space<gm>>, %s: f32, %init: i1)
    attributes {tile.kernel, tile.grid = 2 : i64} {
  %i = tile.block_idx : index
  %sb = tile.sub_block_idx : index
  %u = memref.alloc() : memref<16x64xf32, #hivm.address_space<ub>>
  %v = memref.alloc() : memref<16x64xf32, #hivm.address_space<ub>>
  %w = memref.alloc() : memref<16x64xf32, #hivm.address_space<ub>>
  %r = memref.alloc() : memref<16x1xf32, #hivm.address_space<ub>>
  %h = memref.alloc() : memref<16x64xf16, #hivm.address_space<ub>>
  %a = memref.alloc() : memref<16x32xf16, #hivm.address_space<cbuf>>
  %b = memref.alloc() : memref<32x64xf16, #hivm.address_space<cbuf>>
  %c = memref.alloc() : memref<16x64xf32, #hivm.address_space<cc>>
  tile.copy ins(%g : memref<16x64xf32, #hivm.address_space<gm>>) outs(%u : memref<16x64xf32, #hivm.address_space<ub>>)
  tile.add ins(%u, %v : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  tile.sub ins(%u, %v : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  tile.mul ins(%u, %s : memref<16x64xf32, #hivm.address_space<ub>>, f32) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  tile.div ins(%u, %v : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  tile.max ins(%u, %s : memref<16x64xf32, #hivm.address_space<ub>>, f32) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  tile.min ins(%u, %v : memref<16x64xf32, #hivm.address_space<ub>>, memref<16x64xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  tile.exp ins(%u : memref<16x64xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  tile.ln ins(%u : memref<16x64xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  tile.relu ins(%u : memref<16x64xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  tile.abs ins(%u : memref<16x64xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  tile.sqrt ins(%u : memref<16x64xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  tile.rsqrt ins(%u : memref<16x64xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  tile.rec ins(%u : memref<16x64xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  tile.cast ins(%u : memref<16x64xf32, #hivm.address_space<ub>>) outs(%h : memref<16x64xf16, #hivm.address_space<ub>>)
  tile.fill ins(%s : f32) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>)
  tile.reduce <sum> ins(%u : memref<16x64xf32, #hivm.address_space<ub>>) outs(%r : memref<16x1xf32, #hivm.address_space<ub>>) dims = [1]
  tile.broadcast ins(%r : memref<16x1xf32, #hivm.address_space<ub>>) outs(%w : memref<16x64xf32, #hivm.address_space<ub>>) dims = [1]
  tile.matmul ins(%a, %b : memref<16x32xf16, #hivm.address_space<cbuf>>, memref<32x64xf16, #hivm.address_space<cbuf>>) outs(%c : memref<16x64xf32, #hivm.address_space<cc>>) init(%init : i1)
  return
}
