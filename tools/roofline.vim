" Vim syntax file
" Language:    roofline (.roof): roofline costs of tensor computations
" Maintainer:  the roofline authors
" Installed by `make install` to share/vim/vimfiles/syntax/roofline.vim, with an
" ftdetect file that sets the filetype for *.roof.

if exists("b:current_syntax")
  finish
endif

let s:cpo_save = &cpo
set cpo&vim

syn case match

" Statements and clauses (grammar/lexer.l)
syn keyword roofStatement   let use chip include mesh solve sweep plot block return
syn keyword roofStatement   repeat expect mode fit search
syn keyword roofClause      on shard over compute in within
syn keyword roofMarker      param cache
syn keyword roofCollective  allgather reducescatter allreduce alltoall gather
" Names the evaluator gives a meaning to
syn keyword roofSpecial     training inference log step overlap pass
syn keyword roofField       flops bytes intensity t_math t_hbm t_comm t_lower t_upper
syn keyword roofField       t_derated params param_bytes memory cache_bytes chips
syn keyword roofField       comm_bytes bound

" Element types
syn keyword roofType        f64 fp64 f32 fp32 bf16 f16 fp16 fp8 fp8_e4m3 fp8_e5m2
syn keyword roofType        int8 int4 fp4 float64 float32 bfloat16 float16 float8_e4m3fn
syn keyword roofType        float8_e4m3 e4m3 float8_e5m2 e5m2 s8

" The chips of stdlib/chips.roof and their fields
syn keyword roofChip        tpu v3 v4p v4 v5e v5p v6e tpu7x A100 H100 H200 B200
syn keyword roofChip        GB200_NVL72
syn keyword roofChipField   flops_f64 flops_f32 flops_bf16 flops_f16 flops_fp8
syn keyword roofChipField   flops_int8 flops_int4 flops_fp4 hbm_bytes hbm_bw
syn keyword roofChipField   vmem_bytes vmem_bw vpu_flops ici_bw ici_links hop_latency
syn keyword roofChipField   torus_dims torus_wrap pod_x pod_y pod_z pcie_bw dcn_bw
syn keyword roofChipField   nvlink_bw node_gpus node_bw flops_eff hbm_eff net_eff

" Numbers: 1_000, 8k, 1.5e9, 16Gi, .5, and units after them (8kB, 10 us is two words)
syn match   roofNumber      "\<\d[0-9_]*\(\.\d[0-9_]*\)\=\([eE][+-]\=\d\+\)\=\w*"
syn match   roofNumber      "\.\d[0-9_]*\([eE][+-]\=\d\+\)\=\w*"
" Slice shapes: use v5e 4x4
syn match   roofShape       "\<\d\+\(x\d\+\)\+\>"

" Contraction: *_D, *_{N, H}
syn match   roofContract    "\*_\h\w*"
syn match   roofContract    "\*_\ze{"
syn match   roofOperator    "->\|\.\.\|[<>!=]=\|[<>]"

" A block's name where it is defined
syn match   roofBlockName   "\(\<block\s\+\)\@<=\h\w*"

syn region  roofString      start=+"+ end=+"+ end=+$+ oneline
syn keyword roofTodo        contained TODO FIXME XXX NOTE
syn match   roofComment     "#.*$" contains=roofTodo,@Spell

hi def link roofStatement   Statement
hi def link roofClause      Keyword
hi def link roofMarker      StorageClass
hi def link roofCollective  Function
hi def link roofSpecial     Constant
hi def link roofField       Identifier
hi def link roofType        Type
hi def link roofChip        Constant
hi def link roofChipField   Identifier
hi def link roofNumber      Number
hi def link roofShape       Number
hi def link roofContract    Operator
hi def link roofOperator    Operator
hi def link roofBlockName   Function
hi def link roofString      String
hi def link roofTodo        Todo
hi def link roofComment     Comment

let b:current_syntax = "roofline"

let &cpo = s:cpo_save
unlet s:cpo_save
