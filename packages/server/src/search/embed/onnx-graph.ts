/**
 * A small builder of ONNX models in memory: named constants (initializers), nodes, inputs and outputs,
 * serialised with the ONNX protobuf schema of `onnx-proto`. Used to rebuild the shipped USE-lite graph
 * from its weight files (use-lite-onnx.ts) and, in tests, tiny models of the operator's-folder format.
 */
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;
type AttributeProto = import('onnx-proto').onnx.IAttributeProto;

/** The ONNX operator set the built graphs use (LayerNormalization needs 17). */
export const ONNX_OPSET = 17;

/** The operator domain of onnxruntime's own operators (e.g. `DynamicQuantizeMatMul`) and its version. */
export const ONNXRUNTIME_DOMAIN = 'com.microsoft';

/** Element types the builder writes. */
export type OnnxElement = 'float32' | 'int64' | 'int32' | 'int8' | 'uint8';

const DATA_TYPE: Record<OnnxElement, number> = {
  float32: onnx.TensorProto.DataType.FLOAT,
  int64: onnx.TensorProto.DataType.INT64,
  int32: onnx.TensorProto.DataType.INT32,
  int8: onnx.TensorProto.DataType.INT8,
  uint8: onnx.TensorProto.DataType.UINT8,
};

const WIDTH: Record<OnnxElement, number> = { float32: 4, int64: 8, int32: 4, int8: 1, uint8: 1 };

type ConstantData = Float32Array | number[] | BigInt64Array | Int32Array | Int8Array | Uint8Array;

/** An attribute value: a number (int unless `float` is wrapped), a list of ints, or a string. */
export type OnnxAttribute = number | number[] | string | { float: number };

/** Builds one graph; every `node`/`constant` returns the name of the value it makes. */
export class OnnxGraphBuilder {
  private readonly nodes: import('onnx-proto').onnx.INodeProto[] = [];
  private readonly initializers: import('onnx-proto').onnx.ITensorProto[] = [];
  private readonly inputs: import('onnx-proto').onnx.IValueInfoProto[] = [];
  private readonly outputs: import('onnx-proto').onnx.IValueInfoProto[] = [];
  private counter = 0;
  /** Whether a node of onnxruntime's own domain was added (the model then imports that domain). */
  private usesOnnxruntimeDomain = false;

  /** A graph input of `element` type; `shape` entries are sizes or symbolic names. */
  input(name: string, element: OnnxElement, shape: (number | string)[]): string {
    this.inputs.push(valueInfo(name, element, shape));
    return name;
  }

  /** Marks `value` as a graph output named `name`. */
  output(value: string, name: string, element: OnnxElement, shape: (number | string)[]): void {
    this.node('Identity', [value], {}, name);
    this.outputs.push(valueInfo(name, element, shape));
  }

  /** A constant tensor stored in the model. */
  constant(data: ConstantData, dims: number[], element: OnnxElement = 'float32'): string {
    const name = `c${this.counter++}`;
    const bytes = toBytes(data, element);
    const expected = dims.reduce((product, size) => product * size, 1);
    const width = WIDTH[element];
    if (bytes.byteLength !== expected * width) {
      throw new Error(`constant of shape [${dims.join(', ')}] given ${bytes.byteLength / width} values`);
    }
    this.initializers.push({ name, dims, dataType: DATA_TYPE[element], rawData: bytes });
    return name;
  }

  /** A 1-d int64 constant (shapes, axes, indices). */
  ints(values: number[]): string {
    return this.constant(BigInt64Array.from(values.map(BigInt)), [values.length], 'int64');
  }

  /** A float scalar constant. */
  scalar(value: number): string {
    return this.constant(Float32Array.of(value), []);
  }

  /** One operator node; answers the name of its first output (`outputCount` outputs in all). */
  node(op: string, inputs: string[], attributes: Record<string, OnnxAttribute> = {}, name?: string): string {
    return this.nodeOutputs(op, inputs, attributes, 1, name)[0] as string;
  }

  /** One node of onnxruntime's own operators (`com.microsoft` domain), such as `DynamicQuantizeMatMul`. */
  onnxruntimeNode(op: string, inputs: string[], attributes: Record<string, OnnxAttribute> = {}): string {
    return this.nodeOutputs(op, inputs, attributes, 1, undefined, ONNXRUNTIME_DOMAIN)[0] as string;
  }

  /** One operator node with `count` outputs; answers their names. */
  nodeOutputs(
    op: string,
    inputs: string[],
    attributes: Record<string, OnnxAttribute>,
    count: number,
    name?: string,
    domain?: string,
  ): string[] {
    const id = this.counter++;
    if (domain === ONNXRUNTIME_DOMAIN) this.usesOnnxruntimeDomain = true;
    const outputs = Array.from({ length: count }, (_, i) =>
      i === 0 && name !== undefined ? name : `v${id}_${i}`,
    );
    this.nodes.push({
      name: `n${id}_${op}`,
      opType: op,
      input: inputs,
      output: outputs,
      ...(domain ? { domain } : {}),
      attribute: Object.entries(attributes).map(([key, value]) => attribute(key, value)),
    });
    return outputs;
  }

  /** The serialised model (`ModelProto`). */
  build(graphName: string, producer: string): Uint8Array {
    const model = onnx.ModelProto.create({
      irVersion: 8,
      producerName: producer,
      opsetImport: [
        { domain: '', version: ONNX_OPSET },
        ...(this.usesOnnxruntimeDomain ? [{ domain: ONNXRUNTIME_DOMAIN, version: 1 }] : []),
      ],
      graph: {
        name: graphName,
        node: this.nodes,
        initializer: this.initializers,
        input: this.inputs,
        output: this.outputs,
      },
    });
    return onnx.ModelProto.encode(model).finish();
  }
}

function valueInfo(
  name: string,
  element: OnnxElement,
  shape: (number | string)[],
): import('onnx-proto').onnx.IValueInfoProto {
  return {
    name,
    type: {
      tensorType: {
        elemType: DATA_TYPE[element],
        shape: {
          dim: shape.map((size) => (typeof size === 'number' ? { dimValue: size } : { dimParam: size })),
        },
      },
    },
  };
}

function attribute(name: string, value: OnnxAttribute): AttributeProto {
  const type = onnx.AttributeProto.AttributeType;
  if (typeof value === 'number') return { name, type: type.INT, i: value };
  if (typeof value === 'string') return { name, type: type.STRING, s: new TextEncoder().encode(value) };
  if (Array.isArray(value)) return { name, type: type.INTS, ints: value };
  return { name, type: type.FLOAT, f: value.float };
}

function toBytes(data: ConstantData, element: OnnxElement): Uint8Array {
  let typed: Exclude<ConstantData, number[]>;
  if (Array.isArray(data)) {
    const from = {
      float32: () => Float32Array.from(data),
      int32: () => Int32Array.from(data),
      int64: () => BigInt64Array.from(data.map(BigInt)),
      int8: () => Int8Array.from(data),
      uint8: () => Uint8Array.from(data),
    };
    typed = from[element]();
  } else {
    typed = data;
  }
  // ONNX raw data is little-endian, as are the machines this runs on; copy so the bytes own their buffer.
  return new Uint8Array(typed.buffer.slice(typed.byteOffset, typed.byteOffset + typed.byteLength));
}
