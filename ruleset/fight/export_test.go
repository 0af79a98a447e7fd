package fight

// ConditionEffects lets the table tests spell out the whole effect vocabulary.
var ConditionEffects = conditionEffects
