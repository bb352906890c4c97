// The order the operators are planned (and run) in: the model's, with one change so that more residual ADDs fold
// into the store of the convolution before them (Interpreter+Convolution.swift's fusedEpilogue).

extension PlanBuilder {
    /// The model's operator order, except that a MAX_POOL_2D whose output is only the residual of an ADD after a
    /// CONV_2D (directly, or through a PAD), and which comes after that convolution in the model, is moved (without
    /// the PAD) to just before the convolution when its input is ready by then. The
    /// iris model's downsampling blocks list the convolution first and the pooled shortcut after it: planned in
    /// the model's order, the ADD and the PRELU after it ran as two steps of their own, each a pass over the
    /// block's output. Moved, the convolution adds the pooled residual and applies the slope as it stores, with
    /// the same arithmetic (the sum rounded once to a float, then the slope), as it already does where the model
    /// pools first. Moving a pool earlier only reads a tensor that is ready; every other order is kept.
    func runOrder(producer: [Int], soleConsumer: (Int) -> Int?) -> [Int] {
        let operators = model.operators
        var order = Array(operators.indices)
        for (index, op) in operators.enumerated() where op.code == .conv2D && op.outputs.count == 1 {
            guard let addIndex = soleConsumer(op.outputs[0]), operators[addIndex].code == .add,
                operators[addIndex].inputs.count == 2
            else { continue }
            let add = operators[addIndex]
            var tensor = add.inputs[0] == op.outputs[0] ? add.inputs[1] : add.inputs[0]
            var moved: [Int] = []
            var reader = addIndex
            if tensor >= 0, producer[tensor] > index, operators[producer[tensor]].code == .pad,
                soleConsumer(tensor) == reader
            {
                // The PAD itself stays where it is: the convolution reads the pool's output, and the PAD, left with
                // no reader, is skipped when the planner reaches it (fusedEpilogue).
                reader = producer[tensor]
                tensor = operators[reader].inputs.first ?? -1
            }
            guard tensor >= 0, producer[tensor] > index, operators[producer[tensor]].code == .maxPool2D,
                soleConsumer(tensor) == reader, let position = order.firstIndex(of: index)
            else { continue }
            let pool = producer[tensor]
            moved.insert(pool, at: 0)
            // The pool's input must be made before the convolution (or be a graph input or a constant).
            let ready = operators[pool].inputs.allSatisfy { input in
                input < 0 || producer[input] < 0 || order.firstIndex(of: producer[input]).map { $0 < position } == true
            }
            guard ready else { continue }
            order.removeAll { moved.contains($0) }
            order.insert(contentsOf: moved, at: order.firstIndex(of: index) ?? position)
        }
        return order
    }
}
