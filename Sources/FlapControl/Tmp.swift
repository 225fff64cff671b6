import FlapCore
