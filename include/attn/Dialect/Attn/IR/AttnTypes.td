//===- AttnTypes.td - attn types ---------------------------*- tablegen -*-===//

#ifndef ATTN_DIALECT_ATTN_IR_ATTNTYPES_TD
#define ATTN_DIALECT_ATTN_IR_ATTNTYPES_TD

include "attn/Dialect/Attn/IR/AttnBase.td"
include "mlir/IR/AttrTypeBase.td"

def Attn_SharedBufferType : TypeDef<Attn_Dialect, "SharedBuffer"> {
  let mnemonic = "shared";
  let summary = "A buffer in the shared memory of one program instance";
  let description = [{
    A statically shaped buffer that every thread of a program instance (a
    CTA) can read and write, with a shared-memory layout. A leading
    dimension beyond the tile's two counts pipeline stages:
    `attn.local_view` picks one. Values of this type are not tiles: they are
    written by `attn.async_copy` and `attn.local_store`, which complete at an
    `attn.async_wait` and become visible to other threads at a barrier, and
    read by `attn.dot` and `attn.local_load`.

    ```mlir
    !attn.shared<2x64x128xf16, #attn.swizzled>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        "::mlir::Type":$elementType,
                        "::mlir::Attribute":$layout);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The bytes the buffer occupies.
    int64_t getSizeInBytes() const;
    /// The type of one stage: the shape without its leading dimension.
    SharedBufferType dropLeadingDim() const;
    /// The rank of the buffer.
    int64_t getRank() const { return getShape().size(); }
    /// The byte alignment the buffer needs (its layout's).
    int64_t getAlignment() const {
      if (auto swizzled = ::llvm::dyn_cast<SwizzledSharedLayoutAttr>(getLayout()))
        return swizzled.getAlignment();
      return ::llvm::cast<UnswizzledSharedLayoutAttr>(getLayout()).getAlignment();
    }
  }];
}

def Attn_SharedBuffer : Type<CPred<"::llvm::isa<::mlir::attn::SharedBufferType>($_self)">,
                             "shared-memory buffer", "::mlir::attn::SharedBufferType">;

def Attn_MBarriersType : TypeDef<Attn_Dialect, "MBarriers"> {
  let mnemonic = "mbarriers";
  let summary = "An array of mbarriers in the shared memory of one program instance";
  let description = [{
    `count` hardware transaction barriers (PTX `mbarrier`, 8 bytes each),
    one per pipeline stage: a stage's barrier completes a phase once the
    expected number of threads have arrived and the bytes its TMA copies
    announced have landed. Made by `attn.mbarrier_alloc`, used by
    `attn.tma_copy`, `attn.mbarrier_wait` and `attn.mbarrier_arrive`.

    ```mlir
    !attn.mbarriers<2>
    ```
  }];
  let parameters = (ins "int64_t":$count);
  let assemblyFormat = "`<` $count `>`";
  let genVerifyDecl = 1;
}

#endif // ATTN_DIALECT_ATTN_IR_ATTNTYPES_TD
