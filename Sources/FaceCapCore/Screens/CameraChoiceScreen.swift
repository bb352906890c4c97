/// Key d: the capture devices, numbered, as `facecap devices` lists them; or that there is no other one.
extension Wizard {
    func pickerScreen(_ picker: CameraPicker) -> ScreenModel {
        guard let choices = picker.choices else {
            return ScreenModel(name: stateName, title: Words.text(.pickerTitle), lines: [Words.text(.pickerLooking)])
        }
        var lines: [String]
        if picker.hasOther {
            lines = [Words.text(.pickerPrompt)]
            for (index, choice) in picker.numbered.enumerated() {
                let line = "\(index + 1)  \(choice.path)  \(choice.description)"
                lines.append(choice.isCurrent ? Words.pickerCurrent(camera: line) : line)
            }
        } else if let only = choices.first {
            lines = [Words.pickerNoOther(path: only.path)]
        } else {
            lines = [Words.text(.pickerNone)]
        }
        return ScreenModel(name: stateName, title: Words.text(.pickerTitle), lines: lines)
    }
}
